//! The expression language of `eval` and `bench`, and which rules a
//! Windsor expression follows.

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

/// Which rules a Windsor expression follows (`--rules`).
#[derive(Clone, Copy, ValueEnum)]
pub enum RulesArg {
    /// The seed facet format's
    Seed,
    /// Windsor v0.9's
    #[value(name = "v0.9")]
    V09,
}

impl From<RulesArg> for bpvm::Logic {
    fn from(r: RulesArg) -> bpvm::Logic {
        match r {
            RulesArg::Seed => bpvm::Logic::Windsor,
            RulesArg::V09 => bpvm::Logic::ExprLang,
        }
    }
}
