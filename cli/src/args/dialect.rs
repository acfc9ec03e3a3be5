//! The expression language of `eval` and `bench`.

use bpvm::Dialect;
use clap::ValueEnum;

#[derive(Clone, Copy, ValueEnum)]
pub enum DialectArg {
    /// expr-lang, as Windsor facets write it
    Windsor,
    /// Bluelink `${..}` substitutions
    Bluelink,
}

impl From<DialectArg> for Dialect {
    fn from(d: DialectArg) -> Dialect {
        match d {
            DialectArg::Windsor => Dialect::Windsor,
            DialectArg::Bluelink => Dialect::Bluelink,
        }
    }
}
