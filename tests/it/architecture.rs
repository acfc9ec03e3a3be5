//! The house rules, checked on the source itself: no module imports one
//! that imports it back (except the pairs a recursive type forces, listed
//! below), no folder holds more than 15 source files, and no function runs
//! past 100 lines (except those listed, each with its reason).
//!
//! Modules are files; `a` imports `b` when `a`'s code (not its tests, not
//! its `pub use` re-exports, which are the module's face) names an item
//! of `b` through `crate::`, `super::`, `self::` or a child module's name.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every crate's source folder, from the repository's root.
const CRATES: &[&str] = &[
    "runtime/src",
    "vm/src",
    "compiler/src",
    "checker/src",
    "windsor/src",
    "bluelink/src",
    "src",
    "cli/src",
    "capi/src",
    "lsp/src",
    "harness/src",
];

/// Cycles a recursive type forces: a value holds lists, maps and
/// functions that hold values. Each is also commented where it imports.
const FORCED_CYCLES: &[&[&str]] = &[
    &["runtime/src/map.rs", "runtime/src/value.rs"],
    &["runtime/src/func.rs", "runtime/src/ops.rs", "runtime/src/val.rs"],
];

/// Functions over 100 lines, and why.
const LONG_FUNCTIONS: &[(&str, &str, &str)] = &[(
    "vm/src/vm.rs",
    "exec",
    "the dispatch loop: a match with one short arm per instruction, the hot path of \
     every anchor, left whole until a benchmark shows a split costs nothing",
)];

const MAX_FILES_PER_FOLDER: usize = 15;
const MAX_FUNCTION_LINES: usize = 100;

type Module = Vec<String>;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The crate's modules, each by its path from the crate's root.
fn modules(src: &Path) -> BTreeMap<Module, PathBuf> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(src).unwrap().with_extension("");
            let mut module: Module = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
            if matches!(module.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                module.pop();
            }
            (module, p)
        })
        .collect()
}

/// The code of a file without comments, the contents of string and
/// character literals, or its tests.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod ") {
        Some(i) => &text[..i],
        None => text,
    };
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let after_word = i > 0 && word(chars[i - 1]);
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if c == 'r' && !after_word && matches!(chars.get(i + 1), Some('"' | '#')) {
            let hashes = chars[i + 1..].iter().take_while(|c| **c == '#').count();
            if chars.get(i + 1 + hashes) == Some(&'"') {
                let close: String = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
                let body_start = i + 2 + hashes;
                let rest: String = chars[body_start..].iter().collect();
                let len = rest
                    .find(&close)
                    .map_or(rest.chars().count(), |b| rest[..b].chars().count());
                out.push_str("\"\"");
                out.extend(rest.chars().take(len).filter(|c| *c == '\n'));
                i = body_start + len + close.chars().count();
                continue;
            }
        }
        if c == '\'' {
            // A character literal ('x', '\n', '\''), not a lifetime.
            let len = match (chars.get(i + 1), chars.get(i + 2), chars.get(i + 3)) {
                (Some('\\'), _, _) => chars[i + 2..].iter().position(|c| *c == '\'').map(|p| p + 3),
                (Some(_), Some('\''), _) => Some(3),
                _ => None,
            };
            if let Some(len) = len {
                out.push_str("' '");
                i += len;
                continue;
            }
        }
        if c == '"' {
            out.push('"');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                } else if chars[i] == '\n' {
                    out.push('\n');
                }
                i += 1;
            }
            out.push('"');
            i += 1;
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

/// The paths a `use` tree names: `a::{b, c::{d, e}}` gives `a::b`, `a::c::d`, `a::c::e`.
fn use_paths(tree: &str, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    if let (Some(open), true) = (tree.find('{'), tree.ends_with('}')) {
        let mut head: Vec<String> = prefix.to_vec();
        head.extend(
            tree[..open]
                .split("::")
                .filter(|s| !s.trim().is_empty())
                .map(|s| s.trim().to_string()),
        );
        let (mut depth, mut start) = (0, open + 1);
        let inner_end = tree.len() - 1;
        for (i, c) in tree.char_indices().take(inner_end).skip(open + 1) {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    use_paths(&tree[start..i], &head, out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        use_paths(&tree[start..inner_end], &head, out);
    } else if !tree.is_empty() {
        let tree = tree.split(" as ").next().unwrap();
        let mut path = prefix.to_vec();
        path.extend(tree.split("::").map(|s| s.trim().to_string()));
        out.push(path);
    }
}

/// Whether `c` can be part of a name.
fn word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Every `first::…` path in `code` where `first` starts a path (not after
/// another `::` or name).
fn paths_from(code: &str, first: &str, out: &mut Vec<Vec<String>>) {
    let needle = format!("{first}::");
    let mut from = 0;
    while let Some(i) = code[from..].find(&needle) {
        let at = from + i;
        from = at + needle.len();
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| word(c) || c == ':') {
            continue;
        }
        let rest: String = code[at..].chars().take_while(|c| word(*c) || *c == ':').collect();
        let path: Vec<String> = rest.split("::").filter(|s| !s.is_empty()).map(str::to_string).collect();
        // `crate::{a, b}` names nothing itself: its `use` tree is read whole.
        if path.len() > 1 {
            out.push(path);
        }
    }
}

/// What module `module`'s code imports, among `modules`.
fn imports(module: &Module, file: &Path, modules: &BTreeMap<Module, PathBuf>) -> BTreeSet<Module> {
    let code = code(&std::fs::read_to_string(file).unwrap());
    // A `pub use` is the module's face, not what its own code needs.
    let own: String = code
        .split_inclusive(';')
        .filter(|s| !s.trim_start().starts_with("pub use") && !s.trim_start().starts_with("pub(crate) use"))
        .collect();
    let mut paths = Vec::new();
    for stmt in own.split_inclusive(';') {
        if let Some(i) = stmt.find("use ")
            && stmt[..i].trim().is_empty()
        {
            use_paths(stmt[i + 4..].trim_end_matches(';'), &[], &mut paths);
        }
    }
    let children: Vec<&String> = modules
        .keys()
        .filter(|m| m.len() == module.len() + 1 && m.starts_with(module))
        .map(|m| m.last().unwrap())
        .collect();
    for first in ["crate", "super", "self"]
        .into_iter()
        .chain(children.iter().map(|c| c.as_str()))
    {
        paths_from(&own, first, &mut paths);
    }
    let mut out = BTreeSet::new();
    for path in paths {
        let Some(target) = resolve(module, &path, &children) else {
            continue;
        };
        if let Some(found) = (0..=target.len())
            .rev()
            .map(|k| target[..k].to_vec())
            .find(|m| modules.contains_key(m))
            && &found != module
        {
            out.insert(found);
        }
    }
    out
}

/// The module path `path`, written in `module`, stands for.
fn resolve(module: &Module, path: &[String], children: &[&String]) -> Option<Module> {
    let (first, rest) = path.split_first()?;
    let mut base = match first.as_str() {
        "crate" => Vec::new(),
        "super" => module[..module.len().saturating_sub(1)].to_vec(),
        "self" => module.clone(),
        child if children.iter().any(|c| *c == child) => return Some([module.clone(), path.to_vec()].concat()),
        _ => return None,
    };
    let mut rest = rest;
    while let Some(("super", tail)) = rest.split_first().map(|(h, t)| (h.as_str(), t)) {
        base.pop();
        rest = tail;
    }
    Some([base, rest.to_vec()].concat())
}

/// Modules that import each other, directly or through others (Tarjan).
fn cycles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct Walk<'g> {
        graph: &'g BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'g Module, (usize, usize)>,
        stack: Vec<&'g Module>,
        found: Vec<Vec<Module>>,
    }
    impl<'g> Walk<'g> {
        fn visit(&mut self, m: &'g Module) {
            let n = self.index.len();
            self.index.insert(m, (n, n));
            self.stack.push(m);
            for next in &self.graph[m] {
                match self.index.get(next) {
                    None => {
                        self.visit(next);
                        let low = self.index[next].1.min(self.index[m].1);
                        self.index.get_mut(m).unwrap().1 = low;
                    }
                    Some(&(i, _)) if self.stack.contains(&next) => {
                        let low = i.min(self.index[m].1);
                        self.index.get_mut(m).unwrap().1 = low;
                    }
                    Some(_) => {}
                }
            }
            if self.index[m].0 == self.index[m].1 {
                let at = self.stack.iter().rposition(|x| *x == m).unwrap();
                let part: Vec<Module> = self.stack.drain(at..).cloned().collect();
                if part.len() > 1 {
                    self.found.push(part);
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for m in graph.keys() {
        if !walk.index.contains_key(m) {
            walk.visit(m);
        }
    }
    walk.found
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let mut found: Vec<Vec<String>> = Vec::new();
    for krate in CRATES {
        let src = root().join(krate);
        let modules = modules(&src);
        let graph: BTreeMap<Module, BTreeSet<Module>> = modules
            .iter()
            .map(|(m, file)| (m.clone(), imports(m, file, &modules)))
            .collect();
        for cycle in cycles(&graph) {
            let mut files: Vec<String> = cycle
                .iter()
                .map(|m| modules[m].strip_prefix(root()).unwrap().to_string_lossy().into_owned())
                .collect();
            files.sort();
            found.push(files);
        }
    }
    let forced: Vec<Vec<String>> = FORCED_CYCLES
        .iter()
        .map(|c| c.iter().map(|s| s.to_string()).collect())
        .collect();
    let unexpected: Vec<&Vec<String>> = found.iter().filter(|c| !forced.contains(c)).collect();
    assert!(unexpected.is_empty(), "modules that import each other: {unexpected:#?}");
}

#[test]
fn no_folder_holds_more_than_fifteen_source_files() {
    for krate in CRATES {
        let mut files = Vec::new();
        rust_files(&root().join(krate), &mut files);
        let mut per_folder: BTreeMap<PathBuf, usize> = BTreeMap::new();
        for f in files {
            *per_folder.entry(f.parent().unwrap().to_path_buf()).or_default() += 1;
        }
        for (folder, n) in per_folder {
            assert!(n <= MAX_FILES_PER_FOLDER, "{} holds {n} source files", folder.display());
        }
    }
}

/// Each function of `text` with its first line and its length in lines.
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let code = code(text);
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(at) = line.find("fn ") else { continue };
        let before = line[..at].trim();
        let is_item = before.is_empty()
            || before.split_whitespace().all(|w| {
                matches!(w, "pub" | "const" | "async" | "unsafe" | "extern" | "\"C\"" | "\"\"") || w.starts_with("pub(")
            });
        if !is_item {
            continue;
        }
        let name: String = line[at + 3..].chars().take_while(|c| word(*c)).collect();
        let (mut depth, mut opened) = (0i32, false);
        for (j, l) in lines.iter().enumerate().skip(i) {
            for c in l.chars() {
                match c {
                    '{' => (depth, opened) = (depth + 1, true),
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if !opened && l.trim_end().ends_with(';') {
                break;
            }
            if opened && depth == 0 {
                out.push((name.clone(), i + 1, j - i + 1));
                break;
            }
        }
    }
    out
}

#[test]
fn no_function_runs_past_a_hundred_lines() {
    let mut long = Vec::new();
    for krate in CRATES {
        let mut files = Vec::new();
        rust_files(&root().join(krate), &mut files);
        for f in files {
            let rel = f.strip_prefix(root()).unwrap().to_string_lossy().into_owned();
            for (name, line, len) in functions(&std::fs::read_to_string(&f).unwrap()) {
                let excused = LONG_FUNCTIONS.iter().any(|(file, n, _)| *file == rel && *n == name);
                if len > MAX_FUNCTION_LINES && !excused {
                    long.push(format!("{rel}:{line} {name} ({len} lines)"));
                }
            }
        }
    }
    assert!(long.is_empty(), "functions over {MAX_FUNCTION_LINES} lines: {long:#?}");
}
