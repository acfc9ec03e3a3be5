//! The server: the protocol's lifecycle over stdio, each message handed
//! to what answers it, and checks run when edits settle. Imports every
//! other room.

mod answers;
mod capabilities;
mod notifications;
mod pending;
mod requests;
mod state;

pub use capabilities::{SELECT_CONTEXT, capabilities};
use lsp_server::{Connection, Message};
pub use pending::{BURST, DEBOUNCE, Pending};
use state::State;

/// Serves the language server protocol on stdin and stdout until the
/// client says `exit` (after `shutdown`) or closes the stream. An error
/// is a broken connection or a client that broke the protocol's
/// lifecycle, said in one line.
pub fn serve() -> Result<(), String> {
    let (connection, io_threads) = Connection::stdio();
    let outcome = run(&connection);
    // Dropping the connection ends the writer thread once all is sent.
    drop(connection);
    io_threads.join().map_err(|e| format!("the connection broke: {e}"))?;
    outcome
}

/// The lifecycle on `connection`: initialize, then messages until exit.
fn run(connection: &Connection) -> Result<(), String> {
    let caps = serde_json::to_value(capabilities()).map_err(|e| e.to_string())?;
    connection
        .initialize(caps)
        .map_err(|e| format!("the client did not initialize: {e}"))?;
    let mut state = State::default();
    loop {
        let message = match state.pending.wait() {
            Some(wait) => match connection.receiver.recv_timeout(wait) {
                Ok(m) => Some(m),
                Err(e) if e.is_timeout() => None,
                Err(_) => return Ok(()),
            },
            None => match connection.receiver.recv() {
                Ok(m) => Some(m),
                Err(_) => return Ok(()),
            },
        };
        match message {
            Some(Message::Request(req)) => {
                if connection.handle_shutdown(&req).map_err(|e| e.to_string())? {
                    return Ok(());
                }
                state.request(connection, req);
            }
            Some(Message::Notification(n)) if n.method == "exit" => return Ok(()),
            Some(Message::Notification(n)) => state.notification(n),
            // Replies to requests the server never sends.
            Some(Message::Response(_)) => {}
            None => {}
        }
        state.check_due(connection);
    }
}
