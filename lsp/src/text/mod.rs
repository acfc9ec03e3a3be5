//! Documents as the protocol addresses them: lines and UTF-16 columns,
//! converted from and to the byte offsets and character columns bpvm's
//! findings carry. A leaf room: it imports nothing of the server.

mod lines;
pub mod open;

pub use lines::Lines;
pub use open::{Document, Documents};
