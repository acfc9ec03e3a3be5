//! The instruction set: one enum, read top to bottom.
//!
//! The machine has a value stack, a table of local slots (`let`), and a
//! stack of loop frames for predicate builtins (`filter`, `all`, …). Every
//! instruction is 8 bytes: a tag and at most 32 bits of operand, which index
//! the program's tables (constants, paths, functions, regexes) or are jump
//! targets. Nothing is looked up by name at run time: paths carry
//! pre-hashed keys, functions are resolved to table entries when compiled.

use bpvm_runtime::Value;

/// One instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    // ── constants ─────────────────────────────────────────────────────
    /// Push nil.
    Nil,
    /// Push `true`.
    True,
    /// Push `false`.
    False,
    /// Push a small integer held in the instruction.
    Int(i32),
    /// Push constant `n` of the constant table.
    Const(u32),

    // ── reading ───────────────────────────────────────────────────────
    /// Push the value at path `n` (`cluster.cni.driver`), walked from the
    /// environment's root in one instruction.
    Load(u32),
    /// Push the value at path `path`, or constant `c` when that is nil:
    /// `log_level ?? 'info'` (the fused form of `Load`, `JumpIfNotNil`
    /// over the next instruction, `Const`).
    LoadOr {
        /// The path read.
        path: u16,
        /// The constant pushed when the path reads nil.
        c: u16,
    },
    /// Replace the top of the stack with the value at path `n` inside it
    /// (`f(x).a.b`, `#.name`).
    Get(u32),
    /// Push local slot `n` (a `let` binding).
    Local(u32),
    /// Push the whole environment as a map (expr-lang's `$env`).
    Env,
    /// Pop into local slot `n`.
    SetLocal(u32),
    /// Pop a key or index and a base; push `base[key]`.
    Index(Access),
    /// Pop `to`, `from` (nil when omitted) and a base; push `base[from:to]`.
    Slice,

    // ── operators: pop operands, push the result ──────────────────────
    /// Boolean negation (nil counts as false; other non-bools are errors).
    Not,
    /// Numeric negation.
    Neg,
    /// `+`: numbers, or string concatenation.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/` (always a float).
    Div,
    /// `%` (integers).
    Mod,
    /// `**` (always a float).
    Pow,
    /// `a..b`: the list of integers from a to b, both included (empty
    /// when b < a).
    Range,
    /// `==` (nil-safe, structural).
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `== constant n`: compares the top of the stack with a constant.
    EqConst(u32),
    /// `!= constant n`.
    NeConst(u32),
    /// `x in list` / `key in map`.
    In,
    /// String `contains`.
    Contains,
    /// String `startsWith`.
    StartsWith,
    /// String `endsWith`.
    EndsWith,
    /// `matches` with a pattern computed at run time.
    Matches,
    /// `matches` with precompiled regex `n`.
    MatchesConst(u32),
    /// Turn the top of the stack into a bool (nil → false; other non-bools are errors).
    Bool,
    /// Fail unless the top of the stack is a bool, leaving it there: an
    /// operand of `&&`, `||`, `!` or `?:` (or a predicate's body) under
    /// expr-lang's rules, where nil is not false (`Logic::ExprLang` in
    /// the compiler). Under them a condition jump follows it, or nothing
    /// when the operand is a comparison, which is always a bool.
    AssertBool,

    // ── control flow ──────────────────────────────────────────────────
    /// Continue at instruction `n`.
    Jump(u32),
    /// Pop a condition; jump to `n` when it is false or nil.
    JumpIfFalse(u32),
    /// Pop a condition; jump to `n` when it is true.
    JumpIfTrue(u32),
    /// If the top of the stack is not nil, jump to `n` keeping it; otherwise pop it (`??`).
    JumpIfNotNil(u32),
    /// Jump to `to` when the value at path `path` passes `test` against
    /// constant `c`; the stack is untouched. The fused form of
    /// `Load`, `Const`, a comparison and `JumpIfTrue` (what `when`
    /// conditions are made of).
    JumpIf {
        /// The path read.
        path: u16,
        /// The comparison.
        test: Test,
        /// The constant compared with.
        c: u16,
        /// Where to continue when the test passes.
        to: u16,
    },
    /// Like `JumpIf`, jumping when the test fails.
    JumpUnless {
        /// The path read.
        path: u16,
        /// The comparison.
        test: Test,
        /// The constant compared with.
        c: u16,
        /// Where to continue when the test fails.
        to: u16,
    },
    /// Drop the top of the stack.
    Pop,

    // ── building values ───────────────────────────────────────────────
    /// Pop `n` items; push them as a list.
    List(u32),
    /// Pop `n` key/value pairs; push them as a map.
    Map(u32),
    /// Turn the top of the stack into text, by the dialect's rule for embedded values.
    Text(TextRule),
    /// Pop `n` strings; push their concatenation (templates).
    Concat(u32),

    // ── calls ─────────────────────────────────────────────────────────
    /// Call function `func` of the function table with the top `argc` values.
    Call {
        /// The function's index in the function table.
        func: u16,
        /// How many values on the stack are its arguments.
        argc: u16,
    },
    /// Push function `n` of the function table as a value.
    Func(u32),

    // ── predicate loops (`filter(xs, # > 1)`) ─────────────────────────
    /// Pop a list and open a loop frame of the given kind.
    LoopBegin(Loop),
    /// Advance to the next item; when there is none (or the result is
    /// known), jump to `n`.
    LoopNext(u32),
    /// Push the current item (`#`).
    Item,
    /// Push the current index (`#index`).
    ItemIndex,
    /// Push the accumulator (`#acc`).
    Acc,
    /// Pop the predicate's result for the current item into the frame.
    LoopStep,
    /// Close the frame; push its result.
    LoopEnd,

    /// Stop; the top of the stack is the result.
    Return,
}

/// What an index does when the key or index is not there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Windsor: a missing key, or anything of nil, is nil.
    Optional,
    /// Bluelink: a missing key is an error.
    Strict,
}

/// The comparison of a fused [`Op::JumpIf`] / [`Op::JumpUnless`].
///
/// The first six take any constant. The others are chosen by the compiler
/// from the constant's type, so the machine compares the document value
/// in place with one check of its type; a value of another type (or a
/// constant that is not of the named type) goes the general way, with
/// the same result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Test {
    /// `==` (nil-safe, structural).
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `==` a string.
    StrEq,
    /// `!=` a string.
    StrNe,
    /// `==` an integer.
    IntEq,
    /// `!=` an integer.
    IntNe,
    /// `<` an integer.
    IntLt,
    /// `<=` an integer.
    IntLe,
    /// `>` an integer.
    IntGt,
    /// `>=` an integer.
    IntGe,
    /// `==` a bool.
    BoolEq,
    /// `!=` a bool.
    BoolNe,
}

impl Test {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self.general() {
            Test::Eq => "==",
            Test::Ne => "!=",
            Test::Lt => "<",
            Test::Le => "<=",
            Test::Gt => ">",
            _ => ">=",
        }
    }

    /// The same comparison for a constant of any type.
    pub fn general(self) -> Test {
        match self {
            Test::StrEq | Test::IntEq | Test::BoolEq => Test::Eq,
            Test::StrNe | Test::IntNe | Test::BoolNe => Test::Ne,
            Test::IntLt => Test::Lt,
            Test::IntLe => Test::Le,
            Test::IntGt => Test::Gt,
            Test::IntGe => Test::Ge,
            other => other,
        }
    }

    /// The test specialised to constant `k`'s type, when there is a form
    /// for it.
    ///
    /// ```
    /// use bpvm_vm::Test;
    /// use bpvm_runtime::Value;
    /// assert_eq!(Test::Ge.for_constant(&Value::Int(100)), Test::IntGe);
    /// assert_eq!(Test::Lt.for_constant(&Value::from("a")), Test::Lt);
    /// ```
    pub fn for_constant(self, k: &Value) -> Test {
        match (self.general(), k) {
            (Test::Eq, Value::Str(_)) => Test::StrEq,
            (Test::Ne, Value::Str(_)) => Test::StrNe,
            (Test::Eq, Value::Int(_)) => Test::IntEq,
            (Test::Ne, Value::Int(_)) => Test::IntNe,
            (Test::Lt, Value::Int(_)) => Test::IntLt,
            (Test::Le, Value::Int(_)) => Test::IntLe,
            (Test::Gt, Value::Int(_)) => Test::IntGt,
            (Test::Ge, Value::Int(_)) => Test::IntGe,
            (Test::Eq, Value::Bool(_)) => Test::BoolEq,
            (Test::Ne, Value::Bool(_)) => Test::BoolNe,
            (general, _) => general,
        }
    }

    /// The type of constant the test is specialised to (`None`: any).
    pub fn operand(self) -> Option<&'static str> {
        match self {
            Test::StrEq | Test::StrNe => Some("string"),
            Test::IntEq | Test::IntNe | Test::IntLt | Test::IntLe | Test::IntGt | Test::IntGe => Some("int"),
            Test::BoolEq | Test::BoolNe => Some("bool"),
            _ => None,
        }
    }
}

/// How an embedded `${…}` result becomes text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextRule {
    /// nil is empty, lists and maps are YAML, numbers as Go prints them.
    /// Text of more than one line starts on a new line with every
    /// non-empty line indented by `indent` spaces (the indentation of the
    /// host line plus two, so a YAML block stays nested under its key).
    Windsor {
        /// Spaces put before each line of multi-line text.
        indent: u16,
    },
    /// none is empty, lists and maps are an error (seed 002, "Complex Types").
    Bluelink,
}

/// The predicate builtins, each a loop with its own step and result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loop {
    /// Items whose predicate is true.
    Filter,
    /// The body's value for each item.
    Map,
    /// True when every predicate is true (stops at the first false).
    All,
    /// True when some predicate is true (stops at the first true).
    Any,
    /// True when no predicate is true.
    None,
    /// True when exactly one predicate is true.
    One,
    /// How many predicates are true.
    Count,
    /// The first item whose predicate is true, else nil.
    Find,
    /// The index of that item, else -1.
    FindIndex,
    /// The last item whose predicate is true, else nil.
    FindLast,
    /// The index of that item, else -1.
    FindLastIndex,
    /// A map from each body value (as text) to the items that gave it.
    GroupBy,
    /// The items ordered by the body's value (stable, ascending).
    SortBy,
    /// The items ordered by the body's value, descending.
    SortByDesc,
    /// The accumulator after the body ran for each item; starts at the first item.
    Reduce,
    /// Like `Reduce`, starting at a given initial value (popped before the list).
    ReduceFrom,
}

impl Op {
    /// Values popped and pushed when the instruction runs (for a jump
    /// that keeps its operand, the effect when it does not jump).
    pub fn stack_effect(self) -> (u32, u32) {
        match self {
            Op::Nil
            | Op::True
            | Op::False
            | Op::Int(_)
            | Op::Const(_)
            | Op::Load(_)
            | Op::LoadOr { .. }
            | Op::Local(_)
            | Op::Env
            | Op::Func(_) => (0, 1),
            Op::Item | Op::ItemIndex | Op::Acc | Op::LoopEnd => (0, 1),
            Op::Get(_)
            | Op::Not
            | Op::Neg
            | Op::Bool
            | Op::AssertBool
            | Op::EqConst(_)
            | Op::NeConst(_)
            | Op::MatchesConst(_) => (1, 1),
            Op::Text(_) => (1, 1),
            Op::Index(_) => (2, 1),
            Op::Slice => (3, 1),
            Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Mod | Op::Pow | Op::Range => (2, 1),
            Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge => (2, 1),
            Op::In | Op::Contains | Op::StartsWith | Op::EndsWith | Op::Matches => (2, 1),
            Op::SetLocal(_) | Op::Pop | Op::LoopStep | Op::Return => (1, 0),
            Op::JumpIfFalse(_) | Op::JumpIfTrue(_) | Op::JumpIfNotNil(_) => (1, 0),
            Op::Jump(_) | Op::JumpIf { .. } | Op::JumpUnless { .. } | Op::LoopNext(_) => (0, 0),
            Op::List(n) | Op::Concat(n) => (n, 1),
            Op::Map(n) => (n.saturating_mul(2), 1),
            Op::Call { argc, .. } => (argc as u32, 1),
            Op::LoopBegin(Loop::ReduceFrom) => (2, 0),
            Op::LoopBegin(_) => (1, 0),
        }
    }

    /// The instruction this one may jump to.
    pub fn target(self) -> Option<u32> {
        match self {
            Op::Jump(t) | Op::JumpIfFalse(t) | Op::JumpIfTrue(t) | Op::JumpIfNotNil(t) | Op::LoopNext(t) => Some(t),
            Op::JumpIf { to, .. } | Op::JumpUnless { to, .. } => Some(to as u32),
            _ => None,
        }
    }

    /// The same instruction jumping to `t` instead (`None` when `t` does
    /// not fit the instruction's operand).
    pub fn retarget(self, t: u32) -> Option<Op> {
        Some(match self {
            Op::Jump(_) => Op::Jump(t),
            Op::JumpIfFalse(_) => Op::JumpIfFalse(t),
            Op::JumpIfTrue(_) => Op::JumpIfTrue(t),
            Op::JumpIfNotNil(_) => Op::JumpIfNotNil(t),
            Op::LoopNext(_) => Op::LoopNext(t),
            Op::JumpIf { path, test, c, .. } => Op::JumpIf {
                path,
                test,
                c,
                to: u16::try_from(t).ok()?,
            },
            Op::JumpUnless { path, test, c, .. } => Op::JumpUnless {
                path,
                test,
                c,
                to: u16::try_from(t).ok()?,
            },
            other => other,
        })
    }
}

impl Loop {
    /// The builtin's name, for messages and disassembly.
    pub fn name(self) -> &'static str {
        match self {
            Loop::Filter => "filter",
            Loop::Map => "map",
            Loop::All => "all",
            Loop::Any => "any",
            Loop::None => "none",
            Loop::One => "one",
            Loop::Count => "count",
            Loop::Find => "find",
            Loop::FindIndex => "findIndex",
            Loop::FindLast => "findLast",
            Loop::FindLastIndex => "findLastIndex",
            Loop::GroupBy => "groupBy",
            Loop::SortBy | Loop::SortByDesc => "sortBy",
            Loop::Reduce | Loop::ReduceFrom => "reduce",
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_instruction_is_eight_bytes() {
        assert_eq!(std::mem::size_of::<super::Op>(), 8);
    }
}
