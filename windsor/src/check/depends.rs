//! `dependsOn` names checked against every component any file of the
//! template defines (a facet's component may depend on another facet's).

use bpvm_runtime::Value;
use std::collections::BTreeSet;

/// The names components of a template can be depended on by.
#[derive(Default)]
pub struct Names {
    /// Terraform components (`name`, else `path`).
    terraform: BTreeSet<String>,
    /// Kustomizations, flux systems and what a system compiles to.
    kustomize: BTreeSet<String>,
    /// Flux systems, whose `-install`/`-resources[-variant]` names resolve.
    systems: BTreeSet<String>,
    /// Whether some file declares CRD layers (`crds`).
    crds: bool,
}

/// A `dependsOn` entry: the YAML path of the name, the list it is in,
/// and the name.
pub struct Dependency {
    /// Where the name is.
    pub path: String,
    /// `terraform`, `kustomize` or `flux`.
    pub list: &'static str,
    /// The name.
    pub name: String,
    /// The component whose `dependsOn` it is in.
    pub from: String,
}

const LISTS: [&str; 3] = ["terraform", "kustomize", "flux"];

impl Names {
    /// Adds what `doc` defines, and returns the `dependsOn` entries it has.
    pub fn add(&mut self, doc: &Value) -> Vec<Dependency> {
        let mut deps = Vec::new();
        let Some(m) = doc.as_map() else { return deps };
        if m.contains_key("crds") {
            self.crds = true;
        }
        for list in LISTS {
            let Some(Value::List(items)) = m.get(list) else {
                continue;
            };
            for (i, item) in items.iter().enumerate() {
                let Some(c) = item.as_map() else { continue };
                let id = match list {
                    "terraform" => c.get("name").or_else(|| c.get("path")),
                    _ => c.get("name"),
                };
                let id = id.and_then(Value::as_str);
                if let Some(id) = id {
                    match list {
                        "terraform" => {
                            self.terraform.insert(id.to_string());
                        }
                        "flux" => {
                            self.systems.insert(id.to_string());
                        }
                        _ => {
                            self.kustomize.insert(id.to_string());
                        }
                    }
                }
                if let Some(Value::List(names)) = c.get("dependsOn") {
                    for (j, n) in names.iter().enumerate() {
                        if let Value::Str(n) = n
                            && !n.contains("${")
                        {
                            deps.push(Dependency {
                                path: format!("{list}[{i}].dependsOn[{j}]"),
                                list,
                                name: n.to_string(),
                                from: id.unwrap_or_default().to_string(),
                            });
                        }
                    }
                }
            }
        }
        deps
    }

    /// Whether `d` names a component (kustomizations and flux systems
    /// depend on each other: a system becomes kustomizations).
    pub fn defines(&self, d: &Dependency) -> bool {
        if d.list == "terraform" {
            return self.terraform.contains(&d.name);
        }
        let system = d
            .name
            .strip_suffix("-install")
            .or_else(|| d.name.strip_suffix("-resources"))
            .or_else(|| d.name.rsplit_once("-resources-").map(|(s, _)| s));
        self.kustomize.contains(&d.name)
            || self.systems.contains(&d.name)
            || system.is_some_and(|s| self.systems.contains(s))
            || (d.name == "crds" && self.crds)
    }

    /// The defined name closest to `d`'s, for a suggestion.
    pub fn closest(&self, d: &Dependency) -> Option<String> {
        let pool: Vec<&str> = if d.list == "terraform" {
            self.terraform.iter().map(String::as_str).collect()
        } else {
            self.kustomize.iter().chain(&self.systems).map(String::as_str).collect()
        };
        bpvm_runtime::suggest::closest(&d.name, &pool).map(str::to_string)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_from_any_file_satisfy_a_dependency() {
        let mut names = Names::default();
        let a = Value::from_yaml(
            "terraform:\n- path: network/vpc\n- {name: cluster, dependsOn: [network/vpc, netwrk/vpc]}\n",
        )
        .unwrap();
        let b =
            Value::from_yaml("flux:\n- {name: cni}\nkustomize:\n- {name: ingress, dependsOn: [cni-install, pki]}\n")
                .unwrap();
        let deps: Vec<Dependency> = [a, b].iter().flat_map(|d| names.add(d)).collect();
        let missing: Vec<&str> = deps
            .iter()
            .filter(|d| !names.defines(d))
            .map(|d| d.name.as_str())
            .collect();
        assert_eq!(missing, ["netwrk/vpc", "pki"]);
        assert_eq!(names.closest(&deps[1]).as_deref(), Some("network/vpc"));
    }
}
