//! The name a reference to an undefined one probably meant: the closest
//! one its section defines, for the loader's did-you-mean.

use std::collections::HashMap;

/// Hints given at most per blueprint: each compares the name with every
/// name of its section, and a blueprint may misspell thousands.
pub(super) const HINTS: usize = 50;

/// The name of `section` closest to `name`, other than `except`; of
/// equals, the one written first (`at` gives a definition's place in its
/// section).
pub(super) fn nearest<'s, V>(
    section: &'s HashMap<String, V>,
    at: impl Fn(&V) -> usize,
    name: &str,
    except: &str,
) -> Option<&'s str> {
    let mut written: Vec<Option<&str>> = vec![None; section.len()];
    for (k, v) in section.iter().filter(|(k, _)| k.as_str() != except) {
        // Places are positions among the section's entries, one per name
        // unless a name is written twice (then there are gaps).
        let i = at(v);
        if i >= written.len() {
            written.resize(i + 1, None);
        }
        written[i] = Some(k.as_str());
    }
    let names: Vec<&str> = written.into_iter().flatten().collect();
    bpvm_runtime::suggest::closest(name, &names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn of_equals_the_first_written_is_meant() {
        let section: HashMap<String, usize> = [("fm".to_string(), 1), ("fo".to_string(), 0)].into();
        assert_eq!(nearest(&section, |&i| i, "fn", ""), Some("fo"));
        assert_eq!(nearest(&section, |&i| i, "fn", "fo"), Some("fm"));
        assert_eq!(nearest(&section, |&i| i, "zzzz", ""), None);
    }

    #[test]
    fn a_blueprint_gets_a_bounded_number_of_guesses() {
        let mut text = String::from("version: 2023-04-20\nvariables:\n  region: {type: string}\nresources:\n");
        for i in 0..HINTS + 5 {
            text.push_str(&format!(
                "  r{i}: {{type: a/b, spec: {{x: \"${{variables.regoin}}\"}}}}\n"
            ));
        }
        let errors = crate::load::parse(&text, "bp.yaml", std::path::Path::new("/bp.yaml")).unwrap_err();
        let hinted = errors.0.iter().filter(|e| e.hint().is_some()).count();
        assert_eq!((errors.0.len(), hinted), (HINTS + 5, HINTS));
    }

    #[test]
    fn a_name_written_twice_leaves_a_gap() {
        let section: HashMap<String, usize> = [("region".to_string(), 3)].into();
        assert_eq!(nearest(&section, |&i| i, "regoin", ""), Some("region"));
    }
}
