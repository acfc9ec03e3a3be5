//! The walk: every sub-expression's type, from the scope's types, the
//! literals and what the dialect's operations give; an issue wherever a
//! path leads nowhere or an operation cannot apply to what it is given.

use super::issue::{Issue, IssueKind, LiteralCall};
use super::probe::{Outcome, Probe, variants};
use super::ty::{Fields, Ty};
use bpvm_compiler::ast::{Accessor, Binary, Call, Expr, Kind, Link, Span, Step, Unary};
use bpvm_runtime::Kind as ValueKind;
use bpvm_vm::Loop;

/// At most this many combinations of operand kinds are tried for one
/// operation; a wider one is not judged.
const MAX_COMBINATIONS: usize = 16;

/// One walk over one expression.
pub struct Walk<'p> {
    pub probe: &'p mut Probe,
    pub root: &'p Ty,
    pub src: &'p str,
    pub issues: Vec<Issue>,
    pub calls: Vec<LiteralCall>,
    /// The names of the scope read, in first-read order.
    pub roots: Vec<String>,
    /// `let` names in scope, innermost last.
    lets: Vec<(String, Ty)>,
    /// The item types of the enclosing predicates, innermost last.
    items: Vec<Ty>,
}

impl<'p> Walk<'p> {
    pub fn new(probe: &'p mut Probe, root: &'p Ty, src: &'p str) -> Walk<'p> {
        Walk {
            probe,
            root,
            src,
            issues: Vec::new(),
            calls: Vec::new(),
            roots: Vec::new(),
            lets: Vec::new(),
            items: Vec::new(),
        }
    }

    fn issue(&mut self, kind: IssueKind, span: Span, message: String, suggestion: Option<String>) {
        self.issues.push(Issue {
            kind,
            span,
            message,
            suggestion,
        });
    }

    fn text(&self, span: Span) -> &str {
        self.src.get(span.0 as usize..span.1 as usize).unwrap_or("")
    }

    /// The type of `e`.
    pub fn expr(&mut self, e: &Expr) -> Ty {
        match &e.kind {
            Kind::Nil => Ty::Nil,
            Kind::Bool(_) => Ty::Bool,
            Kind::Int(_) => Ty::Int,
            Kind::Float(_) => Ty::Float,
            Kind::Str(_) => Ty::Str,
            Kind::Ident(name) => self.name(name, e.span),
            Kind::Access(base, steps) => self.access(base, steps),
            Kind::Unary(op, x) => {
                let t = self.expr(x);
                let src = match op {
                    Unary::Not => "!x",
                    Unary::Neg => "-x",
                    Unary::Plus => "+x",
                };
                self.apply(src, &[t], e.span)
            }
            Kind::Chain(first, links) => self.chain(first, links),
            Kind::Ternary(c, a, b) => {
                let t = self.expr(c);
                self.apply("x ? 1 : 2", &[t], c.span);
                let a = self.expr(a);
                let b = self.expr(b);
                a.or(b)
            }
            Kind::List(items) => {
                let item = items.iter().map(|x| self.expr(x)).reduce(Ty::or).unwrap_or(Ty::Any);
                Ty::List(Box::new(item))
            }
            Kind::Map(pairs) => {
                let mut fields = Fields::default();
                for (k, v) in pairs {
                    let t = self.expr(v);
                    match &k.kind {
                        Kind::Str(name) | Kind::Ident(name) => {
                            fields.known.insert(name.to_string(), t);
                        }
                        _ => {
                            self.expr(k);
                            fields.rest = Some(Ty::Any);
                        }
                    }
                }
                Ty::map(fields)
            }
            Kind::Call(call) => self.call(call, e.span),
            Kind::Predicate(kind, args, body) => self.predicate(*kind, args, body),
            Kind::Item => self.items.last().cloned().unwrap_or(Ty::Any),
            Kind::ItemIndex => Ty::Int,
            Kind::Acc => Ty::Any,
            Kind::Let(name, value, body) => {
                let t = self.expr(value);
                self.lets.push((name.to_string(), t));
                let out = self.expr(body);
                self.lets.pop();
                out
            }
            Kind::FuncRef(_) | Kind::Bytes(_) => Ty::Any,
        }
    }

    fn name(&mut self, name: &str, span: Span) -> Ty {
        if let Some((_, t)) = self.lets.iter().rev().find(|(n, _)| n == name) {
            return t.clone();
        }
        if !self.roots.iter().any(|r| r == name) {
            self.roots.push(name.to_string());
        }
        match self.root.field(name) {
            Some(t) => t,
            None => {
                // Another language's word for nil reads a variable of that
                // name, which nothing provides: nil by accident.
                let nil = match self.probe.vocabulary() {
                    bpvm_runtime::Vocabulary::Expr => "nil",
                    bpvm_runtime::Vocabulary::Bluelink => "none",
                };
                if matches!(name, "null" | "nil" | "none" | "None" | "undefined") && name != nil {
                    self.issue(
                        IssueKind::UnknownPath,
                        span,
                        format!("{name}: no such property (not a literal here: it reads a variable that nothing sets)"),
                        Some(nil.to_string()),
                    );
                    return Ty::Nil;
                }
                let known = self.root.field_names();
                let suggestion = bpvm_runtime::suggest::closest(name, &known).map(str::to_string);
                self.unknown(name, span, suggestion);
                Ty::Any
            }
        }
    }

    fn unknown(&mut self, path: &str, span: Span, suggestion: Option<String>) {
        self.issue(
            IssueKind::UnknownPath,
            span,
            format!("{path}: no such property"),
            suggestion,
        );
    }

    /// The path `base.steps…` as far as it is names, for messages.
    fn access(&mut self, base: &Expr, steps: &[Step]) -> Ty {
        let mut path = match &base.kind {
            Kind::Ident(name) if !self.lets.iter().any(|(n, _)| n == name) => Some(name.to_string()),
            _ => None,
        };
        let mut t = self.expr(base);
        let start = base.span.0;
        for step in steps {
            let span = (start, step.end);
            t = match &step.op {
                Accessor::Member(key) => self.member(t, key, span, &mut path),
                Accessor::Index(i) => {
                    // The index is an expression of its own: its paths are checked.
                    self.expr(i);
                    match &i.kind {
                        Kind::Str(key) => self.member(t, key, span, &mut path),
                        // A literal index keeps the path (`subnets[0].cidr`).
                        Kind::Int(n) => {
                            if let Some(p) = path.as_mut() {
                                p.push_str(&format!("[{n}]"));
                            }
                            self.index(t, span)
                        }
                        _ => {
                            path = None;
                            self.index(t, span)
                        }
                    }
                }
                Accessor::Slice(from, to) => {
                    path = None;
                    for x in [from, to].into_iter().flatten() {
                        self.expr(x);
                    }
                    t
                }
            };
        }
        t
    }

    fn member(&mut self, t: Ty, key: &str, span: Span, path: &mut Option<String>) -> Ty {
        let parent = path.clone();
        if let Some(p) = path.as_mut() {
            p.push('.');
            p.push_str(key);
        }
        let kinds = t.kinds();
        if t == Ty::Any {
            return Ty::Any;
        }
        if kinds.has(ValueKind::Map) {
            return match t.field(key) {
                Some(found) => found,
                None => {
                    let known = t.field_names();
                    let closest = bpvm_runtime::suggest::closest(key, &known);
                    let here = path.clone().unwrap_or_else(|| self.text(span).to_string());
                    let suggestion = match (closest, &parent) {
                        (Some(c), Some(parent)) => Some(format!("{parent}.{c}")),
                        (Some(c), None) => Some(c.to_string()),
                        _ => None,
                    };
                    self.unknown(&here, span, suggestion);
                    *path = None;
                    Ty::Any
                }
            };
        }
        *path = None;
        let src = if is_name(key) {
            format!("x.{key}")
        } else {
            format!("x[{key:?}]")
        };
        self.apply(&src, &[t], span)
    }

    /// An item of `t`; indexing what has no items is judged by the VM
    /// (the index's own value is not: a sample list is one item long).
    fn index(&mut self, t: Ty, span: Span) -> Ty {
        let kinds = t.kinds();
        if t == Ty::Any || kinds.has(ValueKind::List) || kinds.has(ValueKind::Map) || kinds.has(ValueKind::Str) {
            return t.item();
        }
        self.apply("x[0]", &[t], span)
    }

    fn chain(&mut self, first: &Expr, links: &[Link]) -> Ty {
        let mut t = self.expr(first);
        let mut lhs_expr = first;
        for link in links {
            let rhs = self.expr(&link.rhs);
            let span = (first.span.0, link.rhs.span.1);
            t = match link.op {
                Binary::Coalesce => t.without_nil().or(rhs),
                Binary::And | Binary::Or => {
                    // Each side on its own, the other a bool that does not
                    // cut the evaluation short.
                    let (src_l, src_r) = match link.op {
                        Binary::And => ("x && true", "true && x"),
                        _ => ("x || false", "false || x"),
                    };
                    self.apply(src_l, &[t], lhs_expr.span);
                    self.apply(src_r, &[rhs], link.rhs.span);
                    Ty::Bool
                }
                Binary::Eq | Binary::Ne => {
                    self.equality(&t, lhs_expr, &rhs, &link.rhs, link.op, span);
                    Ty::Bool
                }
                op => {
                    if matches!(op, Binary::In | Binary::NotIn) {
                        self.membership(&t, &link.rhs);
                    }
                    let src = format!("x {}{} y", if link.not { "not " } else { "" }, op.text());
                    self.apply(&src, &[t, rhs], span)
                }
            };
            lhs_expr = &link.rhs;
        }
        t
    }

    /// `a == b` where nothing `a` can be equals anything `b` can be.
    fn equality(&mut self, l: &Ty, le: &Expr, r: &Ty, re: &Expr, op: Binary, span: Span) {
        for (t, other) in [(l, re), (r, le)] {
            if let (Ty::Enum(values), Kind::Str(s)) = (t, &other.kind) {
                self.not_in_enum(values, s, other.span);
                return;
            }
        }
        let (lk, rk) = (l.kinds(), r.kinds());
        if *l == Ty::Any || *r == Ty::Any {
            return;
        }
        let numbers = |k: super::ty::Kinds| {
            k.without(ValueKind::Nil).iter().map(|k| match k {
                ValueKind::Float => ValueKind::Int,
                k => k,
            })
        };
        let (lk, rk) = (lk.without(ValueKind::Nil), rk.without(ValueKind::Nil));
        if lk.is_empty() || rk.is_empty() {
            return;
        }
        let comparable = numbers(lk).any(|a| numbers(rk).any(|b| a == b));
        if !comparable {
            let vocab = self.probe.vocabulary();
            let always = if op == Binary::Eq { "false" } else { "true" };
            self.issue(
                IssueKind::Mismatch,
                span,
                format!(
                    "'{}' compares {} with {}: always {always}",
                    op.text(),
                    lk.describe(vocab),
                    rk.describe(vocab)
                ),
                None,
            );
        }
    }

    /// `x in ['a', 'b']` where `x` is one of a schema's values.
    fn membership(&mut self, l: &Ty, re: &Expr) {
        if let (Ty::Enum(values), Kind::List(items)) = (l, &re.kind) {
            for item in items {
                if let Kind::Str(s) = &item.kind {
                    self.not_in_enum(values, s, item.span);
                }
            }
        }
    }

    fn not_in_enum(&mut self, values: &[String], s: &str, span: Span) {
        if values.iter().any(|v| v == s) {
            return;
        }
        let names: Vec<&str> = values.iter().map(String::as_str).collect();
        let suggestion = bpvm_runtime::suggest::closest(s, &names).map(|c| format!("'{c}'"));
        self.issue(
            IssueKind::NotInEnum,
            span,
            format!(
                "'{s}' is not one of the values the schema allows ({})",
                names.join(", ")
            ),
            suggestion,
        );
    }

    /// Runs `src` over every combination of the operands' kinds: an issue
    /// when every one fails, the union of the results otherwise.
    fn apply(&mut self, src: &str, operands: &[Ty], span: Span) -> Ty {
        match self.judge(operands, |probe, combo| probe.run(src, combo)) {
            Ok(t) => t,
            Err(m) => {
                // The VM quotes the operation it ran; the template's own
                // text is what the reader knows.
                let ran = format!("(in '{}')", bpvm_runtime::excerpt::clip(src));
                let written = format!("(in '{}')", bpvm_runtime::excerpt::clip(self.text(span)));
                self.issue(IssueKind::Mismatch, span, m.replace(&ran, &written), None);
                Ty::Any
            }
        }
    }

    /// Runs an operation on every combination of its operands' kinds: the
    /// union of the results, or the first message when every one fails
    /// (`Any` when an operand is unknown or the combinations too many).
    fn judge(&mut self, operands: &[Ty], mut run: impl FnMut(&mut Probe, &[&Ty]) -> Outcome) -> Result<Ty, String> {
        if operands.contains(&Ty::Any) {
            return Ok(Ty::Any);
        }
        let choices: Vec<Vec<Ty>> = operands.iter().map(variants).collect();
        let combinations: usize = choices.iter().map(Vec::len).product();
        if combinations == 0 || combinations > MAX_COMBINATIONS {
            return Ok(Ty::Any);
        }
        let mut result: Option<Ty> = None;
        let mut first_error = None;
        for combo in product(&choices) {
            let refs: Vec<&Ty> = combo.iter().collect();
            match run(self.probe, &refs) {
                Ok(t) => result = Some(result.map_or(t.clone(), |r| r.or(t))),
                Err(m) => {
                    first_error.get_or_insert(m);
                }
            }
        }
        match (result, first_error) {
            (Some(t), _) => Ok(t),
            (None, Some(m)) => Err(m),
            (None, None) => Ok(Ty::Any),
        }
    }

    fn call(&mut self, call: &Call, span: Span) -> Ty {
        if let Some(Expr {
            kind: Kind::Str(arg),
            span: at,
        }) = call.args.first()
        {
            self.calls.push(LiteralCall {
                name: call.name.clone(),
                arg: arg.to_string(),
                span: *at,
            });
        }
        let args: Vec<Ty> = call.args.iter().map(|a| self.expr(a)).collect();
        for (_, _, v) in &call.named {
            self.expr(v);
        }
        let Some(f) = self.probe.functions().find(&call.name) else {
            return Ty::Any;
        };
        // A wrong number of arguments is the compiler's to report; a
        // builtin is only ever run with one it accepts.
        if !f.pure || !call.named.is_empty() || !f.accepts(args.len()) {
            return Ty::Any;
        }
        match self.judge(&args, |probe, combo| probe.call(f, combo)) {
            Ok(t) => t,
            Err(m) => {
                self.issue(IssueKind::Mismatch, span, m, None);
                Ty::Any
            }
        }
    }

    fn predicate(&mut self, kind: Loop, args: &[Expr], body: &Expr) -> Ty {
        let types: Vec<Ty> = args.iter().map(|a| self.expr(a)).collect();
        let list = types.first().cloned().unwrap_or(Ty::Any);
        let item = list.item();
        self.items.push(item.clone());
        let body = self.expr(body);
        self.items.pop();
        match kind {
            Loop::Filter | Loop::SortBy | Loop::SortByDesc => Ty::List(Box::new(item)),
            Loop::Map => Ty::List(Box::new(body)),
            Loop::All | Loop::Any | Loop::None | Loop::One => Ty::Bool,
            Loop::Count | Loop::FindIndex | Loop::FindLastIndex => Ty::Int,
            Loop::Find | Loop::FindLast => item.or(Ty::Nil),
            _ => Ty::Any,
        }
    }
}

/// Every choice of one type per operand.
fn product(choices: &[Vec<Ty>]) -> Vec<Vec<Ty>> {
    let mut out: Vec<Vec<Ty>> = vec![Vec::new()];
    for options in choices {
        out = out
            .into_iter()
            .flat_map(|prefix| {
                options.iter().map(move |t| {
                    let mut p = prefix.clone();
                    p.push(t.clone());
                    p
                })
            })
            .collect();
    }
    out
}

/// A key written after `.` without quotes.
fn is_name(key: &str) -> bool {
    let mut chars = key.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}
