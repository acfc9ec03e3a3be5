//! The functions a renderer adds to the Windsor dialect: files read
//! relative to the facet (never outside the project), YAML, and terraform
//! outputs (W9).
//!
//! Imports only the leaves: host functions are called from any template.

pub mod allow;
pub mod jsonnet;

use bpvm_compiler::{Compiler, Dialect, Logic};
use bpvm_runtime::builtins::{cidr, windsor};
use bpvm_runtime::root::{AccessError, Root};
use bpvm_runtime::{Builtin, Ctx, FnError, Library, Map, Val, text};
use bpvm_runtime::{Environment, PathTable, Value};
use bpvm_vm::Vm;
use std::cell::RefCell;
use std::path::PathBuf;

/// What the renderer's functions read.
#[derive(Debug, Clone)]
pub struct Host {
    /// The project root: every file is read through it (D8).
    pub root: Root,
    /// The folder relative paths start from (the facet's).
    pub dir: PathBuf,
    /// Terraform outputs by component, when supplied (a test case's
    /// `terraformOutputs`, `--terraform-outputs FILE`); otherwise
    /// `terraform_output()` is deferred.
    pub outputs: Option<Value>,
    /// The scope of the expressions being evaluated (also Jsonnet's
    /// `context`).
    pub env: Environment,
    /// The variables `env(name)` reads; the process's when `None`.
    pub environment: Option<Map>,
    /// The variables `env(name)` may read (any when `None`).
    pub allow_env: Option<allow::EnvAllow>,
    /// The project's path table: the scope is bound to it, so its
    /// programs read a path by its slot after the first read.
    pub paths: Option<PathTable>,
    /// Jsonnet's view of the scope and results by file: a render that
    /// calls the same file from the same scope three times evaluates it
    /// once, and converts the scope once.
    pub jsonnet_cache: RefCell<crate::host::jsonnet::Calls>,
    /// The components `terraform_output()` was asked about while outputs
    /// were supplied: a test case must mock only components that exist.
    pub asked: RefCell<Vec<String>>,
}

/// The renderer's functions.
pub static FUNCTIONS: &[Builtin] = &[
    Builtin {
        name: "terraform_output",
        min: 2,
        max: 2,
        f: terraform_output,
        pure: false,
    },
    Builtin {
        name: "secret",
        min: 3,
        max: 3,
        f: secret,
        pure: false,
    },
    Builtin {
        name: "env",
        min: 1,
        max: 1,
        f: env,
        pure: false,
    },
    Builtin {
        name: "jsonnet",
        min: 1,
        max: 1,
        f: jsonnet,
        pure: false,
    },
    Builtin {
        name: "file",
        min: 1,
        max: 1,
        f: file,
        pure: false,
    },
    Builtin {
        name: "yaml",
        min: 1,
        max: 2,
        f: yaml,
        pure: false,
    },
    Builtin {
        name: "yamlString",
        min: 1,
        max: 2,
        f: yaml_string,
        pure: false,
    },
];

/// `now()`, `date()`, `duration()`, `timezone()` and method calls on times.
static TIME: &[Builtin] = bpvm_runtime::time::functions::FUNCTIONS;

/// The Windsor dialect with the renderer's functions.
pub static LIBRARY: Library = Library::new(&[windsor::FUNCTIONS, cidr::FUNCTIONS, FUNCTIONS, TIME]);

/// What the Windsor v0.9 rules change in the library: `string()` writes
/// maps with sorted keys, as Windsor v0.9's YAML encoder does (W10 over D1).
static V09: &[Builtin] = &[Builtin {
    name: "string",
    min: 1,
    max: 1,
    f: string_v09,
    pure: true,
}];

/// The library of templates rendered by the Windsor v0.9 rules.
pub static LIBRARY_V09: Library = Library::new(&[windsor::FUNCTIONS, cidr::FUNCTIONS, FUNCTIONS, TIME, V09]);

/// The compiler every facet expression goes through.
pub fn compiler() -> Compiler {
    Compiler::new(Dialect::Windsor).library(&LIBRARY)
}

/// The compiler of a template's format: the v0.9 rules' library and
/// expr-lang's boolean rules (R-8.8.2: `&&`/`||` need a bool on the left
/// and give the right operand as it is; `!`, `?:` need a bool), or the
/// seed's library and DECISIONS W8.
///
/// ```
/// let functions = bpvm_windsor::compiler_for(true).functions();
/// assert!(functions.find("terraform_output").is_some() && functions.find("len").is_some());
/// ```
pub fn compiler_for(v09: bool) -> Compiler {
    if v09 {
        Compiler::new(Dialect::Windsor)
            .library(&LIBRARY_V09)
            .logic(Logic::ExprLang)
    } else {
        compiler()
    }
}

/// `string(x)` by the v0.9 rules: nil is empty, lists and maps are YAML
/// with map keys sorted, anything else as Go prints it.
fn string_v09<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    match a[0] {
        Val::Str(_) => Ok(a[0]),
        Val::Doc(_) | Val::List(_) | Val::Map(_) => {
            let v = sorted(a[0].to_value());
            Ok(c.str(text::to_yaml(&v).trim_end()))
        }
        v => {
            let mut s = String::new();
            text::push_text(&mut s, v);
            Ok(c.str(&s))
        }
    }
}

/// `v` with every map's keys in byte order.
fn sorted(v: Value) -> Value {
    match v {
        Value::Map(m) => {
            let mut entries: Vec<(bpvm_runtime::Key, Value)> =
                m.iter().map(|(k, v)| (k.clone(), sorted(v.clone()))).collect();
            entries.sort_by(|a, b| a.0.as_str().cmp(b.0.as_str()));
            Value::Map(entries.into_iter().collect())
        }
        Value::List(l) => Value::List(l.into_iter().map(sorted).collect()),
        other => other,
    }
}

fn host<'a>(c: &Ctx<'a>, f: &str) -> Result<&'a Host, FnError> {
    c.host
        .downcast_ref::<Host>()
        .ok_or_else(|| FnError::new(format!("{f}() is only available when rendering a project")))
}

fn text_arg<'a>(f: &str, a: &[Val<'a>], i: usize) -> Result<&'a str, FnError> {
    bpvm_runtime::builtins::args::str_at(f, a, i)
}

fn terraform_output<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let (component, key) = (text_arg("terraform_output", a, 0)?, text_arg("terraform_output", a, 1)?);
    let h = host(c, "terraform_output")?;
    let Some(outputs) = &h.outputs else {
        return Err(FnError::deferred(format!(
            "terraform output '{key}' of component '{component}' is not known yet"
        )));
    };
    {
        let mut asked = h.asked.borrow_mut();
        if !asked.iter().any(|a| a == component) {
            asked.push(component.to_string());
        }
    }
    let found = outputs
        .as_map()
        .and_then(|m| m.get(component))
        .and_then(Value::as_map)
        .and_then(|m| m.get(key));
    found.map_or(Ok(Val::Nil), |v| c.adopt("terraform_output()", v))
}

impl Host {
    /// The functions' view of the project in `root`, paths starting from
    /// folder `dir`.
    pub fn new(root: Root, dir: PathBuf, outputs: Option<Value>) -> Host {
        Host {
            root,
            dir,
            outputs,
            env: Environment::new(),
            environment: None,
            allow_env: None,
            paths: None,
            jsonnet_cache: RefCell::default(),
            asked: RefCell::default(),
        }
    }
}

fn refused(f: &str, e: AccessError) -> FnError {
    FnError::arg(0, format!("{f}() path {e}"))
}

/// The text of the file at `path` (from the facet's folder), `None` when
/// there is none; any other refusal of the root is an error.
fn read(h: &Host, f: &str, path: &str) -> Result<Option<String>, FnError> {
    match h.root.read_string(&h.dir, path) {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.is_missing() => Ok(None),
        Err(e) => Err(refused(f, e)),
    }
}

/// `secret(vault, item, field)`: resolved by the secrets provider at
/// deploy time, never while composing, so it stays as written (like
/// `terraform_output` without outputs, W9).
fn secret<'a>(_: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let (vault, item) = (text_arg("secret", a, 0)?, text_arg("secret", a, 1)?);
    let field = text_arg("secret", a, 2)?;
    Err(FnError::deferred(format!(
        "secret {field:?} of item {item:?} in vault {vault:?} is resolved at deploy time"
    )))
}

/// `env(name)`: the variable's value, nil when it is not set (as Windsor
/// v0.9: never `""` for an unset variable).
fn env<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let name = text_arg("env", a, 0)?;
    let h = host(c, "env")?;
    if let Some(allow) = h.allow_env.as_ref().filter(|a| !a.allows(name)) {
        return Err(FnError::arg(0, allow.refusal(name)));
    }
    match &h.environment {
        Some(vars) => vars.get(name).map_or(Ok(Val::Nil), |v| c.adopt("env()", v)),
        None => {
            // Tracked by name and a hash of the value: never the value.
            let raw = std::env::var_os(name);
            let bytes = raw
                .as_ref()
                .map(|v| std::os::unix::ffi::OsStrExt::as_bytes(v.as_os_str()));
            bpvm_runtime::root::inputs::env(name, bytes);
            std::env::var(name).map_or(Ok(Val::Nil), |v| c.adopt_str("env()", &v))
        }
    }
}

fn jsonnet<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let path = text_arg("jsonnet", a, 0)?;
    let h = host(c, "jsonnet")?;
    let full = h.root.file(&h.dir, path).map_err(|e| refused("jsonnet", e))?;
    let mut calls = h.jsonnet_cache.borrow_mut();
    match calls.evaluate(&h.root, &full, h.env.root()) {
        Ok(v) => c.adopt("jsonnet()", v),
        Err(e) => Err(FnError::new(format!("jsonnet() failed on {path:?}: {e}"))),
    }
}

fn file<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let path = text_arg("file", a, 0)?;
    match read(host(c, "file")?, "file", path)? {
        Some(t) => c.adopt_str("file()", &t),
        None => Err(FnError::arg(0, format!("file() found no file {path:?}"))),
    }
}

/// Interpolates `text` with `${input.…}` bound to `input`.
fn fill(h: &Host, f: &str, text: &str, input: &Value) -> Result<String, FnError> {
    let prog = compiler()
        .compile_template(text)
        .map_err(|d| FnError::new(format!("{f}() cannot compile its template: {d}")))?;
    let mut scope = Map::new();
    scope.insert("input", input.clone());
    let env = Environment::from_value(Value::Map(scope)).unwrap_or_default();
    let mut vm = Vm::new();
    match vm.run_with(&prog, &env, h) {
        Ok(Val::Str(s)) => Ok(s.to_string()),
        Ok(other) => Err(FnError::new(format!(
            "{f}() template must give a string, got {}",
            other.type_name()
        ))),
        Err(e) => Err(FnError::new(format!(
            "{f}() template failed: {}",
            prog.diagnose(&e).message
        ))),
    }
}

fn yaml<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let arg = text_arg("yaml", a, 0)?;
    let h = host(c, "yaml")?;
    let input = a.get(1).map(|v| v.to_value()).unwrap_or(Value::Null);
    let mut text = if arg.contains('\n') {
        arg.to_string()
    } else {
        match read(h, "yaml", arg)? {
            Some(t) => t,
            None if input == Value::Null => match Value::from_yaml_as(arg, bpvm_runtime::Typing::GoYaml) {
                Ok(v) if !matches!(v, Value::Str(_)) => return c.adopt("yaml()", &v),
                _ => return Err(FnError::arg(0, format!("yaml() found no file {arg:?}"))),
            },
            None => arg.to_string(),
        }
    };
    if input != Value::Null {
        text = fill(h, "yaml", &text, &input)?;
    }
    // Windsor's yaml() parses with its YAML library: its numbers (`0644` is 420).
    let v = Value::from_yaml_as(&text, bpvm_runtime::Typing::GoYaml)
        .map_err(|e| FnError::new(format!("yaml() cannot parse: {e}")))?;
    // A one-map list is the map, so `yaml(x).key` reads it.
    let v = match v {
        Value::List(mut items) if items.len() == 1 && matches!(items[0], Value::Map(_)) => items.remove(0),
        other => other,
    };
    c.adopt("yaml()", &v)
}

fn yaml_string<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    if a.len() == 1 {
        return c.adopt_str("yamlString()", &text::to_yaml(&a[0].to_value()));
    }
    let path = text_arg("yamlString", a, 0)?;
    let h = host(c, "yamlString")?;
    let text = read(h, "yamlString", path)?.unwrap_or_else(|| path.to_string());
    let input = a[1].to_value();
    if input == Value::Null {
        return c.adopt_str("yamlString()", &text);
    }
    c.adopt_str("yamlString()", &fill(h, "yamlString", &text, &input)?)
}
