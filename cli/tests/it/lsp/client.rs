//! A client of `bpvm lsp` in a child process: messages framed with
//! `Content-Length`, each read with a bounded wait, the child killed
//! when the client is dropped.

use crate::support::BPVM;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// How long any one message may take to come.
const WAIT: Duration = Duration::from_secs(60);

/// A running `bpvm lsp` and the messages it has sent and not been read.
pub struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    messages: Receiver<Value>,
    next_id: i64,
    /// Notifications read while waiting for something else.
    held: Vec<Value>,
}

impl Client {
    /// `bpvm lsp` started in `dir`, not yet initialized.
    pub fn start(dir: &Path) -> Client {
        let mut child = Command::new(BPVM)
            .arg("lsp")
            .current_dir(dir)
            .env_remove("WINDSOR_CONTEXT")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (send, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if send.send(message).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            messages,
            next_id: 0,
            held: Vec::new(),
        }
    }

    /// Started in `dir` and initialized: the `initialize` result.
    pub fn initialized(dir: &Path) -> (Client, Value) {
        let mut client = Client::start(dir);
        let result = client.request("initialize", json!({ "capabilities": {} }));
        client.notify("initialized", json!({}));
        (client, result)
    }

    /// Writes `bytes` to the server as they are.
    pub fn write_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Sends `message`, framed.
    pub fn send(&mut self, message: &Value) {
        let body = message.to_string();
        let framed = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        self.write_raw(framed.as_bytes());
    }

    /// Sends notification `method`.
    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Sends request `method` and waits for its response: the whole
    /// response (its `result` or `error`).
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let message = self.receive();
            if message.get("id") == Some(&json!(id)) && message.get("method").is_none() {
                return message;
            }
            self.held.push(message);
        }
    }

    /// Sends request `method`: its result (it must succeed).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let response = self.call(method, params);
        assert!(response.get("error").is_none(), "{method}: {response}");
        response["result"].clone()
    }

    /// The next message the server sends, held ones first.
    pub fn next(&mut self) -> Value {
        if !self.held.is_empty() {
            return self.held.remove(0);
        }
        self.receive()
    }

    /// The next message from the server's stream (none held).
    fn receive(&mut self) -> Value {
        match self.messages.recv_timeout(WAIT) {
            Ok(m) => m,
            Err(e) => panic!("no message from bpvm lsp within {WAIT:?}: {e}"),
        }
    }

    /// The diagnostics published for each of `files` (absolute paths,
    /// each with the version of its text the check must have seen), the
    /// first publication of that version for each, in path order.
    pub fn diagnostics_for(&mut self, files: &[(&Path, i64)]) -> Vec<(String, Value)> {
        let mut found: Vec<(String, Value)> = Vec::new();
        let wanted: Vec<(String, i64)> = files.iter().map(|(f, v)| (uri(f), *v)).collect();
        while found.len() < wanted.len() {
            let message = self.next();
            if message["method"] != "textDocument/publishDiagnostics" {
                continue;
            }
            let params = &message["params"];
            let uri = params["uri"].as_str().unwrap_or_default().to_string();
            let fresh = wanted.iter().any(|(u, v)| *u == uri && params["version"] == *v);
            if fresh && !found.iter().any(|(u, _)| *u == uri) {
                found.push((uri, params["diagnostics"].clone()));
            }
        }
        found.sort_by(|a, b| a.0.cmp(&b.0));
        found
    }

    /// Shuts the server down: `shutdown`, `exit`, and its exit status.
    pub fn shut_down(mut self) -> Option<i32> {
        let response = self.call("shutdown", Value::Null);
        assert_eq!(response["result"], Value::Null, "{response}");
        self.notify("exit", Value::Null);
        self.exit_status("after `exit`")
    }

    /// Closes the server's stdin and waits for its exit status.
    pub fn hang_up(mut self) -> Option<i32> {
        self.exit_status("when its input closed")
    }

    /// Closes the server's stdin and waits (bounded) for its exit
    /// status; `when` says what should have ended it.
    fn exit_status(&mut self, when: &str) -> Option<i32> {
        self.stdin.take();
        let deadline = Instant::now() + WAIT;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("bpvm lsp did not exit {when}");
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `file:` URI of `path` as the server writes it.
pub fn uri(path: &Path) -> String {
    let mut text = String::from("file://");
    for b in path.to_str().unwrap().bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => text.push(b as char),
            _ => text.push_str(&format!("%{b:02X}")),
        }
    }
    text
}

/// One framed message; `None` at the end of the stream.
fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}
