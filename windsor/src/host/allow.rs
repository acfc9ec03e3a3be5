//! Which environment variables `env(name)` may read. Windsor lets a facet
//! read any variable, and so does bpvm by default; in CI, where the
//! environment holds secrets, an allow-list of name patterns keeps every
//! other variable out of the blueprint. A refused read is an error, never
//! nil: a nil would quietly change what renders (`env("X") ?? default`).

/// The environment variable holding the allow-list: name patterns
/// separated by commas (`AWS_REGION,CI_*`). Set, even to nothing, it
/// turns the list on; an empty list refuses every variable.
pub const VARIABLE: &str = "BPVM_ALLOW_ENV";

/// The flag of the `bpvm` command that adds a pattern to the list.
pub const FLAG: &str = "--allow-env";

/// Name patterns: `*` stands for any run of characters, `?` for one;
/// every other character for itself (names are case-sensitive).
///
/// ```
/// use bpvm_windsor::allow::EnvAllow;
/// let allow = EnvAllow::new(["AWS_REGION", "CI_*", "NODE?"]);
/// assert!(allow.allows("AWS_REGION") && allow.allows("CI_JOB_ID") && allow.allows("NODE1"));
/// assert!(!allow.allows("AWS_SECRET_ACCESS_KEY") && !allow.allows("NODE12"));
/// assert!(!EnvAllow::new(Vec::<String>::new()).allows("HOME"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EnvAllow {
    patterns: Vec<String>,
}

impl EnvAllow {
    /// The list of `patterns`.
    pub fn new<S: Into<String>>(patterns: impl IntoIterator<Item = S>) -> EnvAllow {
        EnvAllow {
            patterns: patterns.into_iter().map(Into::into).collect(),
        }
    }

    /// The list [`VARIABLE`] holds in the process's environment; `None`
    /// when it is not set (every variable may be read).
    pub fn from_environment() -> Option<EnvAllow> {
        std::env::var(VARIABLE).ok().map(|text| EnvAllow::parse(&text))
    }

    /// The list in `text`: patterns separated by commas, blanks around
    /// them ignored.
    pub fn parse(text: &str) -> EnvAllow {
        EnvAllow::new(text.split(',').map(str::trim).filter(|p| !p.is_empty()))
    }

    /// Adds `patterns` to the list.
    pub fn extend<S: Into<String>>(&mut self, patterns: impl IntoIterator<Item = S>) {
        self.patterns.extend(patterns.into_iter().map(Into::into));
    }

    /// The patterns, as given.
    pub fn patterns(&self) -> &[String] {
        &self.patterns
    }

    /// Whether some pattern matches all of `name`.
    pub fn allows(&self, name: &str) -> bool {
        self.patterns.iter().any(|p| matches(p.as_bytes(), name.as_bytes()))
    }

    /// Why reading `name` is refused, for `env()`'s error.
    pub fn refusal(&self, name: &str) -> String {
        let list = if self.patterns.is_empty() {
            "an empty allow-list".to_string()
        } else {
            format!("the allow-list {}", self.patterns.join(","))
        };
        format!("env({name:?}) is refused: the variable is not on {list}; allow it with {FLAG} {name} or in {VARIABLE}")
    }
}

/// Whether glob `pattern` matches all of `name`: the usual greedy match
/// with one backtrack point, linear in practice and never recursive.
fn matches(pattern: &[u8], name: &[u8]) -> bool {
    let (mut p, mut n) = (0, 0);
    // After the last `*`: where in the pattern, and where in the name it
    // began matching.
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match pattern.get(p) {
            Some(b'*') => {
                star = Some((p + 1, n));
                p += 1;
            }
            Some(&c) if c == b'?' || c == name[n] => {
                p += 1;
                n += 1;
            }
            _ => match star {
                Some((after, from)) => {
                    p = after;
                    n = from + 1;
                    star = Some((after, from + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_whole_names() {
        let cases = [
            ("*", "", true),
            ("*", "ANY", true),
            ("A*B", "AB", true),
            ("A*B", "AXXB", true),
            ("A*B", "AXXBC", false),
            ("*_KEY", "AWS_SECRET_KEY", true),
            ("?", "", false),
            ("A*B*C", "AXBXBXC", true),
            ("a", "A", false),
        ];
        for (p, n, want) in cases {
            assert_eq!(matches(p.as_bytes(), n.as_bytes()), want, "{p} {n}");
        }
    }

    #[test]
    fn the_variable_is_a_comma_separated_list() {
        assert_eq!(EnvAllow::parse(" A, B_* ,,").patterns(), ["A", "B_*"]);
        assert_eq!(EnvAllow::parse("").patterns(), [] as [String; 0]);
        assert_eq!(
            EnvAllow::parse("A,B").refusal("TOKEN"),
            "env(\"TOKEN\") is refused: the variable is not on the allow-list A,B; allow it with --allow-env TOKEN or in BPVM_ALLOW_ENV"
        );
    }
}
