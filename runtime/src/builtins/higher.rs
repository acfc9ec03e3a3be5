//! Bluelink's higher-order functions (seed 003): `map`, `filter`,
//! `reduce`, `sort`, `flatmap` over function values, the function builders
//! `compose`, `pipe`, `getattr`, `getelem`, and the `_g` partials.
//!
//! A function value is a builtin with arguments bound after the ones it
//! is called with; an item's index is passed only to a function that
//! needs it (B3).

use super::args::{int_at, list_at, str_at, wrong};
use crate::bounds::limits::VALUE_DEPTH;
use crate::bounds::nesting::deeper_than;
use crate::func::{Builtin, Ctx, FnError, FuncVal, VARIADIC};
use crate::val::{ListRef, Val};
use bumpalo::collections::Vec as BumpVec;
use std::cmp::Ordering;

/// The higher-order functions and the builders.
pub static FUNCTIONS: &[Builtin] = &[
    builtin!("map", 2, 2, map),
    builtin!("filter", 2, 2, filter),
    builtin!("reduce", 3, 3, reduce),
    builtin!("sort", 2, 2, sort),
    builtin!("flatmap", 2, 2, flatmap),
    builtin!("compose", 1, VARIADIC, |c, a| build(c, "compose", &COMPOSED, a)),
    builtin!("pipe", 1, VARIADIC, |c, a| build(c, "pipe", &PIPED, a)),
    builtin!("getattr", 1, 1, |c, a| {
        str_at("getattr", a, 0)?;
        Ok(bind(c, &ATTR, a))
    }),
    builtin!("getelem", 1, 1, |c, a| {
        int_at("getelem", a, 0)?;
        Ok(bind(c, &ELEM, a))
    }),
];

// What the builders return: applied with the item first, then what was bound.
// A missing attribute or element is an error, not none (B12: Bluelink's
// getattr and getelem tests); a none item gives none (seed 003).
static COMPOSED: Builtin = builtin!("compose", 2, VARIADIC, |c, a| chain(
    c,
    "compose",
    a[0],
    a[1..].iter().rev()
));
static PIPED: Builtin = builtin!("pipe", 2, VARIADIC, |c, a| chain(c, "pipe", a[0], a[1..].iter()));
static ATTR: Builtin = builtin!("getattr", 2, 2, |_, a| match (a[0], a[1]) {
    (Val::Nil, _) => Ok(Val::Nil),
    (obj, Val::Str(name)) => match obj.map() {
        Some(m) => m
            .get(name)
            .ok_or_else(|| FnError::arg(0, format!("getattr() found no attribute {name:?} in the object"))),
        None => Err(wrong("getattr", 0, "an object", obj)),
    },
    (_, other) => Err(wrong("getattr", 1, "a string", other)),
});
static ELEM: Builtin = builtin!("getelem", 2, 2, |_, a| match a[0] {
    Val::Nil => Ok(Val::Nil),
    v => match (v.list(), a[1]) {
        (Some(l), Val::Int(i)) => usize::try_from(i).ok().and_then(|at| l.get(at)).ok_or_else(|| {
            FnError::arg(
                0,
                format!("getelem() index {i} is out of bounds for an array of {} items", l.len()),
            )
        }),
        (None, _) => Err(wrong("getelem", 0, "an array", v)),
        (_, other) => Err(wrong("getelem", 1, "an integer", other)),
    },
});

/// A partial: `name_g(args…)` returns `name` with `args` bound after the
/// argument it will be called with.
pub fn partial<'a>(c: &mut Ctx<'a>, f: &'static Builtin, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    if !f.accepts(a.len() + 1) {
        return Err(FnError::new(format!(
            "{}_g() takes {} arguments, got {}",
            f.name,
            less_one(f),
            a.len()
        )));
    }
    Ok(bind(c, f, a))
}

fn less_one(f: &Builtin) -> String {
    let min = f.min.saturating_sub(1);
    match f.max {
        VARIADIC => format!("at least {min}"),
        max if max - 1 == min => format!("{min}"),
        max => format!("{min} to {}", max - 1),
    }
}

fn bind<'a>(c: &Ctx<'a>, func: &'static Builtin, bound: &[Val<'a>]) -> Val<'a> {
    let bound = c.arena.alloc_slice_copy(bound);
    Val::Func(c.arena.alloc(FuncVal { func, bound }))
}

fn build<'a>(c: &mut Ctx<'a>, name: &str, apply: &'static Builtin, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    for (i, f) in a.iter().enumerate() {
        if !matches!(f, Val::Func(_)) {
            return Err(wrong(name, i, "a function", *f));
        }
    }
    Ok(bind(c, apply, a))
}

/// `x` through each of `fs` in turn: the functions `name` composed.
fn chain<'a, 'f>(
    c: &mut Ctx<'a>,
    name: &str,
    mut x: Val<'a>,
    fs: impl Iterator<Item = &'f Val<'a>>,
) -> Result<Val<'a>, FnError>
where
    'a: 'f,
{
    for f in fs {
        let Val::Func(f) = f else { continue };
        x = shallow(name, c.call(f, &[x])?)?;
    }
    Ok(x)
}

/// `v`, unless a function that feeds each result to the next step has
/// built it past [`VALUE_DEPTH`] levels.
fn shallow<'a>(name: &str, v: Val<'a>) -> Result<Val<'a>, FnError> {
    if deeper_than(v, VALUE_DEPTH) {
        return Err(FnError::new(format!(
            "{name}() builds a value nested too deeply (more than {VALUE_DEPTH} levels)"
        )));
    }
    Ok(v)
}

/// The function argument at `i`.
fn func_at<'a>(name: &str, a: &[Val<'a>], i: usize) -> Result<&'a FuncVal<'a>, FnError> {
    match a.get(i).copied().unwrap_or(Val::Nil) {
        Val::Func(f) => Ok(f),
        other => Err(wrong(name, i, "a function", other)),
    }
}

/// A function called once per item; whether it also takes the item's
/// index (B3) is decided once, not per item.
struct PerItem<'a> {
    f: &'a FuncVal<'a>,
    index: bool,
}

impl<'a> PerItem<'a> {
    /// `f` at argument 1 of `name`, to be called with `args` values per item.
    fn new(name: &str, a: &[Val<'a>], args: usize) -> Result<PerItem<'a>, FnError> {
        let f = func_at(name, a, 1)?;
        Ok(PerItem {
            f,
            index: f.wants_index(args),
        })
    }

    #[inline]
    fn call(&self, c: &mut Ctx<'a>, args: &[Val<'a>], index: usize) -> Result<Val<'a>, FnError> {
        if self.index {
            let mut with_index = [Val::Nil; 3];
            with_index[..args.len()].copy_from_slice(args);
            with_index[args.len()] = Val::Int(index as i64);
            c.call(self.f, &with_index[..=args.len()])
        } else {
            c.call(self.f, args)
        }
    }
}

/// The items of argument 0; none gives `None` (the result is none too).
fn items<'a>(name: &str, a: &[Val<'a>]) -> Result<Option<ListRef<'a>>, FnError> {
    if a[0].is_nil() {
        return Ok(None);
    }
    list_at(name, a, 0).map(Some)
}

fn map<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let Some(xs) = items("map", a)? else {
        return Ok(Val::Nil);
    };
    let f = PerItem::new("map", a, 1)?;
    let mut out = BumpVec::with_capacity_in(xs.len(), c.arena);
    for (i, x) in xs.iter().enumerate() {
        // An item that maps to none is left out.
        match f.call(c, &[x], i)? {
            Val::Nil => {}
            v => out.push(v),
        }
    }
    Ok(Val::List(out.into_bump_slice()))
}

fn filter<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let Some(xs) = items("filter", a)? else {
        return Ok(Val::Nil);
    };
    let f = PerItem::new("filter", a, 1)?;
    let mut out = BumpVec::with_capacity_in(xs.len(), c.arena);
    for (i, x) in xs.iter().enumerate() {
        match f.call(c, &[x], i)? {
            Val::Bool(true) => out.push(x),
            Val::Bool(false) | Val::Nil => {}
            other => {
                return Err(FnError::kinds(
                    1,
                    "filter() predicate must return a bool, got {}",
                    &[other.kind()],
                ));
            }
        }
    }
    Ok(Val::List(out.into_bump_slice()))
}

/// `reduce(items, fn, initial)` (B2): `fn(accumulator, item[, index])`.
fn reduce<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let Some(xs) = items("reduce", a)? else {
        return Ok(Val::Nil);
    };
    let f = PerItem::new("reduce", a, 2)?;
    let mut acc = a[2];
    for (i, x) in xs.iter().enumerate() {
        acc = shallow("reduce", f.call(c, &[acc, x], i)?)?;
    }
    Ok(acc)
}

/// A stable sort by a comparator returning a number (B6: < 0 means a
/// before b).
fn sort<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let Some(xs) = items("sort", a)? else {
        return Ok(Val::Nil);
    };
    let f = func_at("sort", a, 1)?;
    let mut out: Vec<Val<'a>> = xs.iter().collect();
    let mut failure = None;
    out.sort_by(|x, y| {
        if failure.is_some() {
            return Ordering::Equal;
        }
        match c.call(f, &[*x, *y]) {
            Ok(Val::Int(n)) => n.cmp(&0),
            Ok(Val::Float(n)) => n.partial_cmp(&0.0).unwrap_or(Ordering::Equal),
            Ok(other) => {
                failure = Some(FnError::kinds(
                    1,
                    "sort() comparator must return a number, got {}",
                    &[other.kind()],
                ));
                Ordering::Equal
            }
            Err(e) => {
                failure = Some(e);
                Ordering::Equal
            }
        }
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(c.list(out)),
    }
}

fn flatmap<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let Some(xs) = items("flatmap", a)? else {
        return Ok(Val::Nil);
    };
    let f = PerItem::new("flatmap", a, 1)?;
    let mut out = Vec::new();
    for (i, x) in xs.iter().enumerate() {
        match f.call(c, &[x], i)? {
            Val::Nil => {}
            v => match v.list() {
                Some(inner) => out.extend(inner.iter()),
                None => {
                    return Err(FnError::kinds(
                        1,
                        "flatmap() function must return an array, got {}",
                        &[v.kind()],
                    ));
                }
            },
        }
    }
    Ok(c.list(out))
}
