//! Native functions: their signature, the call context they get, and the
//! libraries the compiler resolves names against.

use crate::bounds::limits::CALL_DEPTH;
use crate::bounds::{govern, steps};
use crate::kind::{Kind, Vocabulary};
// The cycle func ↔ val is forced by the recursive type: functions take
// and give Vals, and a Val may hold a function.
use crate::val::Val;
use bumpalo::Bump;
use std::any::Any;
use std::fmt;

/// A native function: arguments in, one value out.
pub type NativeFn = for<'a> fn(&mut Ctx<'a>, &[Val<'a>]) -> Result<Val<'a>, FnError>;

/// A function known to the compiler by name, with its arity.
pub struct Builtin {
    /// Name as written in expressions.
    pub name: &'static str,
    /// Fewest arguments.
    pub min: u8,
    /// Most arguments ([`VARIADIC`] for no limit).
    pub max: u8,
    /// The implementation.
    pub f: NativeFn,
    /// True when the result depends on the arguments alone (no clock,
    /// files, network or host data): a call with literal arguments can then
    /// be checked, and its type errors reported, at compile time.
    pub pure: bool,
}

/// `Builtin::max` for functions without an upper limit.
pub const VARIADIC: u8 = u8::MAX;

impl Builtin {
    /// True when `n` arguments are accepted.
    pub fn accepts(&self, n: usize) -> bool {
        n >= self.min as usize && (self.max == VARIADIC || n <= self.max as usize)
    }

    /// The arity as people write it: `2`, `1 to 3`, `at least 1`.
    pub fn arity(&self) -> String {
        match (self.min, self.max) {
            (a, b) if a == b => format!("{a}"),
            (a, VARIADIC) => format!("at least {a}"),
            (a, b) => format!("{a} to {b}"),
        }
    }

    /// The arity with its noun: `1 argument`, `at least 1 argument`,
    /// `1 to 3 arguments`.
    ///
    /// ```
    /// use bpvm_runtime::Builtin;
    /// let f = Builtin { name: "f", min: 1, max: u8::MAX, f: |_, _| Ok(bpvm_runtime::Val::Nil), pure: true };
    /// assert_eq!(f.arguments(), "at least 1 argument");
    /// ```
    pub fn arguments(&self) -> String {
        let last = if self.max == VARIADIC { self.min } else { self.max };
        format!("{} argument{}", self.arity(), if last == 1 { "" } else { "s" })
    }
}

impl fmt::Debug for Builtin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.name, self.arity())
    }
}

/// A function used as a value: a builtin with arguments already bound
/// (Bluelink `_g` partials, `getattr("id")`, `compose(...)`).
#[derive(Debug)]
pub struct FuncVal<'a> {
    /// The function called.
    pub func: &'static Builtin,
    /// Arguments bound before the call's own arguments are added.
    pub bound: &'a [Val<'a>],
}

/// What a native function is given besides its arguments.
pub struct Ctx<'a> {
    /// Where results that outlive the call are allocated.
    pub arena: &'a Bump,
    /// What the program that runs the VM passed along for its own
    /// functions (a renderer's files and terraform outputs); `&()` when
    /// nothing was. Host functions downcast it.
    pub host: &'a dyn Any,
    /// How many calls of function values enclose this one.
    calls: u32,
    /// Calls of function values made so far (the step budget, see
    /// [`crate::bounds::steps`]).
    made: u64,
}

impl<'a> Ctx<'a> {
    /// A context for calls that allocate in `arena` and see `host`.
    pub fn new(arena: &'a Bump, host: &'a dyn Any) -> Ctx<'a> {
        Ctx {
            arena,
            host,
            calls: 0,
            made: 0,
        }
    }

    /// Fails when building `bytes` more would exceed the evaluation's
    /// memory budget (see [`crate::bounds::budget`]); `what` names the builder.
    pub fn reserve(&self, what: &str, bytes: usize) -> Result<(), FnError> {
        crate::bounds::budget::check(crate::bounds::budget::held(self.arena), bytes)
            .map_err(|m| FnError::new(format!("{what} {m}")))
    }

    /// Reserves room for `n` values of a list (see [`Ctx::reserve`]).
    pub fn reserve_items(&self, what: &str, n: usize) -> Result<(), FnError> {
        self.reserve(what, n.saturating_mul(std::mem::size_of::<Val<'a>>()))
    }

    /// Copies a host function's result into the arena, within the
    /// evaluation's memory budget: what a host reads (a file, a YAML
    /// document, a Jsonnet result) counts like what the evaluation builds.
    pub fn adopt(&self, what: &str, v: &crate::Value) -> Result<Val<'a>, FnError> {
        self.reserve(what, crate::bounds::budget::footprint(v))?;
        Ok(self.import(v))
    }

    /// Copies a host function's text into the arena, within the
    /// evaluation's memory budget (see [`Ctx::adopt`]).
    pub fn adopt_str(&self, what: &str, s: &str) -> Result<Val<'a>, FnError> {
        self.reserve(what, s.len())?;
        Ok(self.str(s))
    }

    /// Copies `s` into the arena.
    #[inline]
    pub fn str(&self, s: &str) -> Val<'a> {
        Val::Str(self.arena.alloc_str(s))
    }

    /// Moves a list of values into the arena.
    pub fn list(&self, items: impl IntoIterator<Item = Val<'a>, IntoIter: ExactSizeIterator>) -> Val<'a> {
        Val::List(self.arena.alloc_slice_fill_iter(items))
    }

    /// Moves a map's entries into the arena; a repeated key keeps its first
    /// position and its last value.
    pub fn map(&self, entries: impl IntoIterator<Item = (&'a str, Val<'a>)>) -> Val<'a> {
        let mut out: bumpalo::collections::Vec<'a, (&'a str, Val<'a>)> = bumpalo::collections::Vec::new_in(self.arena);
        for (k, v) in entries {
            match out.iter_mut().find(|(ek, _)| *ek == k) {
                Some(slot) => slot.1 = v,
                None => out.push((k, v)),
            }
        }
        Val::Map(out.into_bump_slice())
    }

    /// Deep-copies a document value into the arena (the arena never runs
    /// destructors, so owned values must not be moved into it).
    pub fn import(&self, v: &crate::Value) -> Val<'a> {
        use crate::Value;
        match v {
            Value::Str(s) => self.str(s),
            Value::Bytes(b) => Val::Bytes(self.arena.alloc_slice_copy(b)),
            Value::List(items) => self.list(items.iter().map(|x| self.import(x)).collect::<Vec<_>>()),
            Value::Map(m) => {
                let entries: Vec<(&'a str, Val<'a>)> = m
                    .iter()
                    .map(|(k, x)| (&*self.arena.alloc_str(k.as_str()), self.import(x)))
                    .collect();
                Val::Map(self.arena.alloc_slice_copy(&entries))
            }
            scalar => Val::from_doc(scalar).detach(),
        }
    }

    /// Calls a function value: `args` first, then its bound arguments
    /// (`trimprefix_g("http://")` called with `x` is `trimprefix(x, "http://")`).
    ///
    /// A function value can call function values (`compose`), and those
    /// can be built into each other item by item (`reduce(fs, compose,
    /// f)`): past [`CALL_DEPTH`] levels a call is an error, not a stack
    /// overflow.
    pub fn call(&mut self, f: &FuncVal<'a>, args: &[Val<'a>]) -> Result<Val<'a>, FnError> {
        if self.calls >= CALL_DEPTH {
            return Err(FnError::new(format!(
                "calls of function values nested too deeply (more than {CALL_DEPTH} levels)"
            )));
        }
        self.made += 1;
        if self.made % u64::from(steps::CLOCK_EVERY) == 0 {
            self.governed()?;
        }
        self.calls += 1;
        let result = self.apply(f, args);
        self.calls -= 1;
        result
    }

    /// Fails past the step budget or the render's deadline.
    #[cold]
    fn governed(&self) -> Result<(), FnError> {
        if self.made > steps::budget() {
            return Err(FnError::new(steps::exceeded()));
        }
        govern::on_time().map_err(FnError::new)
    }

    fn apply(&mut self, f: &FuncVal<'a>, args: &[Val<'a>]) -> Result<Val<'a>, FnError> {
        let n = args.len() + f.bound.len();
        if !f.func.accepts(n) {
            return Err(arity(f, n));
        }
        // Higher-order functions call once per item: the common shapes are
        // spelled out so that neither the heap nor a length-driven memmove
        // is involved.
        let f_ = f.func.f;
        match (args, f.bound) {
            (_, []) => f_(self, args),
            ([x], [b]) => f_(self, &[*x, *b]),
            ([x], [b, c]) => f_(self, &[*x, *b, *c]),
            ([x, y], [b]) => f_(self, &[*x, *y, *b]),
            _ => self.spread(f, args),
        }
    }

    /// Calls `f` with `args` and its bound arguments in one new list.
    fn spread(&mut self, f: &FuncVal<'a>, args: &[Val<'a>]) -> Result<Val<'a>, FnError> {
        let all: Vec<Val<'a>> = args.iter().chain(f.bound).copied().collect();
        (f.func.f)(self, &all)
    }
}

/// The error of a function value called with `n` arguments it does not take.
fn arity(f: &FuncVal<'_>, n: usize) -> FnError {
    FnError::new(format!("{}() takes {}, got {n}", f.func.name, f.func.arguments()))
}

impl FuncVal<'_> {
    /// True when a higher-order function should pass this function the
    /// item's index too (B3): it needs more than `args` arguments besides
    /// its bound ones.
    pub fn wants_index(&self, args: usize) -> bool {
        (self.func.min as usize) > args + self.bound.len()
    }
}

/// A native function's failure. The VM adds the call's position.
///
/// Boxed, so that `Result<Val, FnError>` is as small as a `Val`: every
/// native call returns one, and higher-order functions make one call per
/// item.
#[derive(Debug, Clone, PartialEq)]
pub struct FnError(Box<Failure>);

/// What an [`FnError`] says (reached through `Deref`).
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// What went wrong, starting with the function's name; with `kinds`,
    /// each `{}` stands for one kind's name (see [`Failure::text`]).
    pub message: String,
    /// The kinds of value the message names, in the order of its `{}`s.
    pub kinds: Vec<Kind>,
    /// The 0-based argument the failure is about, when there is one.
    pub arg: Option<usize>,
    /// Not a failure: the value is not known yet (a terraform output before
    /// apply), and the host keeps the expression's text as it is.
    pub deferred: bool,
}

impl FnError {
    /// A failure not tied to one argument.
    pub fn new(message: impl Into<String>) -> FnError {
        FnError(Box::new(Failure {
            message: message.into(),
            kinds: Vec::new(),
            arg: None,
            deferred: false,
        }))
    }

    /// A failure about argument `arg` whose message names kinds of value
    /// (`{}` for each), in the words of the program's dialect.
    ///
    /// ```
    /// use bpvm_runtime::{FnError, Kind, Vocabulary};
    /// let e = FnError::kinds(0, "len() argument 1 must be a string, got {}", &[Kind::Nil]);
    /// assert_eq!(e.text(Vocabulary::Bluelink), "len() argument 1 must be a string, got none");
    /// assert_eq!(e.to_string(), "len() argument 1 must be a string, got nil");
    /// ```
    pub fn kinds(arg: usize, message: impl Into<String>, kinds: &[Kind]) -> FnError {
        let mut e = FnError::arg(arg, message);
        e.0.kinds = kinds.to_vec();
        e
    }

    /// The value is not known yet (sets the `deferred` field).
    pub fn deferred(message: impl Into<String>) -> FnError {
        let mut e = FnError::new(message);
        e.0.deferred = true;
        e
    }

    /// A failure about argument `arg` (0-based).
    pub fn arg(arg: usize, message: impl Into<String>) -> FnError {
        let mut e = FnError::new(message);
        e.0.arg = Some(arg);
        e
    }
}

impl std::ops::Deref for FnError {
    type Target = Failure;
    fn deref(&self) -> &Failure {
        &self.0
    }
}

impl Failure {
    /// The message, kinds named in `vocabulary`.
    pub fn text(&self, vocabulary: Vocabulary) -> String {
        if self.kinds.is_empty() {
            return self.message.clone();
        }
        let mut out = String::with_capacity(self.message.len() + 16);
        let mut kinds = self.kinds.iter();
        let mut rest = self.message.as_str();
        while let Some(at) = rest.find("{}") {
            out.push_str(&rest[..at]);
            out.push_str(kinds.next().map_or("{}", |k| k.name(vocabulary)));
            rest = &rest[at + 2..];
        }
        out.push_str(rest);
        match vocabulary {
            Vocabulary::Bluelink => expected_in_bluelink(out),
            Vocabulary::Expr => out,
        }
    }
}

/// `message` with the kinds it expects (between "must be " and ", got")
/// named in Bluelink's words, as what it got already is: an array, an
/// object, a boolean, none.
fn expected_in_bluelink(message: String) -> String {
    let Some(start) = message.find("must be ").map(|i| i + "must be ".len()) else {
        return message;
    };
    let end = message[start..].find(", got").map_or(message.len(), |i| start + i);
    let mut words: Vec<String> = message[start..end].split(' ').map(str::to_string).collect();
    for i in 0..words.len() {
        let cut = words[i].find([',', ')']).unwrap_or(words[i].len());
        let (new, article) = match &words[i][..cut] {
            "list" => ("array", "an"),
            "map" | "mapping" => ("object", "an"),
            "bool" => ("boolean", "a"),
            "nil" => ("none", ""),
            _ => continue,
        };
        let tail = words[i][cut..].to_string();
        words[i] = format!("{new}{tail}");
        if i > 0 && matches!(words[i - 1].as_str(), "a" | "an") && !article.is_empty() {
            words[i - 1] = article.to_string();
        }
    }
    format!("{}{}{}", &message[..start], words.join(" "), &message[end..])
}

impl fmt::Display for FnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Vocabulary::Expr))
    }
}

/// The functions a compiler resolves calls against: a dialect's standard
/// set, optionally followed by a host's own sets (a renderer's `jsonnet`,
/// `terraform_output`). A later set's function hides an earlier one of the
/// same name.
///
/// ```
/// use bpvm_runtime::builtins::windsor;
/// use bpvm_runtime::{Builtin, Library, Val};
/// static HOST: &[Builtin] = &[Builtin { name: "answer", min: 0, max: 0, f: |_, _| Ok(Val::Int(42)), pure: true }];
/// static LIB: Library = Library::new(&[windsor::FUNCTIONS, HOST]);
/// assert_eq!(LIB.find("answer").unwrap().name, "answer");
/// assert!(LIB.find("len").is_some());
/// ```
pub struct Library {
    sets: &'static [&'static [Builtin]],
    /// Every name's function, built on the first lookup. Compiling looks
    /// up every name an expression reads (a name may be a builtin's):
    /// scanning some 150 names for each took 9 % of compiling a short
    /// `when` (2,400 of its 27,000 instructions, callgrind). The table is
    /// one heap block the library points to from its start (a static
    /// library is never dropped; memory checkers see it as reachable),
    /// made there directly: the first lookup may come deep in a
    /// recursion, on a small stack.
    index: std::sync::OnceLock<NameIndex>,
}

impl Library {
    /// A library of `sets`, searched last to first.
    pub const fn new(sets: &'static [&'static [Builtin]]) -> Library {
        Library {
            sets,
            index: std::sync::OnceLock::new(),
        }
    }

    /// The function called `name`.
    pub fn find(&self, name: &str) -> Option<&'static Builtin> {
        let index = self.index.get_or_init(|| NameIndex::of(self.sets));
        if index.complete {
            lookup(&index.slots, name)
        } else {
            self.scan(name)
        }
    }

    /// Every function's name, once, in the order the sets list them (for
    /// a did-you-mean).
    ///
    /// ```
    /// use bpvm_runtime::builtins::BLUELINK;
    /// let names = BLUELINK.names();
    /// assert!(names.contains(&"join") && names.contains(&"cidrsubnet"));
    /// assert_eq!(names.iter().filter(|n| **n == "join").count(), 1);
    /// ```
    pub fn names(&self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = Vec::new();
        for b in self.sets.iter().flat_map(|set| set.iter()) {
            if !names.contains(&b.name) {
                names.push(b.name);
            }
        }
        names
    }

    /// `find` by looking at every name, the last set first.
    fn scan(&self, name: &str) -> Option<&'static Builtin> {
        self.sets
            .iter()
            .rev()
            .find_map(|set| set.iter().find(|b| b.name == name))
    }
}

/// Slots of an open-addressing table of builtins by name, kept at most
/// half full so that a probe soon meets an empty slot.
const SLOTS: usize = 512;

/// A library's functions by name.
struct NameIndex {
    slots: Box<[Option<&'static Builtin>]>,
    /// False when the library has more names than the table holds: they
    /// are then looked up by scanning.
    complete: bool,
}

impl NameIndex {
    /// The index of `sets`; a later set's function wins over an earlier
    /// one's of the same name.
    fn of(sets: &'static [&'static [Builtin]]) -> NameIndex {
        let mut slots: Box<[Option<&'static Builtin>]> = vec![None; SLOTS].into_boxed_slice();
        let mut count = 0;
        for b in sets.iter().flat_map(|set| set.iter()) {
            let mut at = slot(b.name);
            while slots[at].is_some_and(|old| old.name != b.name) {
                at = (at + 1) % SLOTS;
            }
            count += usize::from(slots[at].is_none());
            slots[at] = Some(b);
            if count > SLOTS / 2 {
                return NameIndex { slots, complete: false };
            }
        }
        NameIndex { slots, complete: true }
    }
}

fn lookup(slots: &[Option<&'static Builtin>], name: &str) -> Option<&'static Builtin> {
    let mut at = slot(name);
    loop {
        match slots[at] {
            Some(b) if b.name == name => return Some(b),
            Some(_) => at = (at + 1) % SLOTS,
            None => return None,
        }
    }
}

/// Where `name`'s probe starts (FNV-1a: names are short).
fn slot(name: &str) -> usize {
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    (hash % SLOTS as u64) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_index_finds_what_a_scan_finds() {
        static FIRST: &[Builtin] = &[Builtin {
            name: "len",
            min: 0,
            max: 0,
            f: |_, _| Ok(Val::Int(1)),
            pure: true,
        }];
        static SHADOWED: Library = Library::new(&[crate::builtins::windsor::FUNCTIONS, FIRST]);
        for lib in [&crate::builtins::WINDSOR, &crate::builtins::BLUELINK, &SHADOWED] {
            for b in lib.sets.iter().flat_map(|set| set.iter()) {
                assert!(
                    std::ptr::eq(lib.find(b.name).unwrap(), lib.scan(b.name).unwrap()),
                    "{}",
                    b.name
                );
            }
            assert!(lib.find("no_such_function").is_none());
        }
        assert!(std::ptr::eq(SHADOWED.find("len").unwrap(), &FIRST[0]));
    }

    #[test]
    fn a_call_result_is_no_larger_than_a_value() {
        assert_eq!(size_of::<Result<Val<'_>, FnError>>(), size_of::<Val<'_>>());
    }
}

#[cfg(test)]
mod wording {
    use super::*;

    #[test]
    fn bluelink_messages_name_expected_kinds_in_bluelink_words() {
        let e = FnError::kinds(
            0,
            "f() argument 1 must be a list, a map or a bool, got {}",
            &[Kind::Nil],
        );
        assert_eq!(
            e.text(Vocabulary::Bluelink),
            "f() argument 1 must be an array, an object or a boolean, got none"
        );
        assert_eq!(
            e.text(Vocabulary::Expr),
            "f() argument 1 must be a list, a map or a bool, got nil"
        );
    }
}
