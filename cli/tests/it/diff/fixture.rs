//! The repository the diff tests change: a Windsor project (v0.9
//! format: two contexts, one facet both render, a value the schema
//! marks sensitive) and Bluelink blueprints (one including another, a
//! secret variable; one that the change deletes).

use crate::support;
use std::path::{Path, PathBuf};

const WINDSOR: &str = "version: v1alpha1\n";

const SCHEMA: &str = "\
type: object
properties:
  token:
    type: string
    sensitive: true
  size:
    type: integer
    default: 1
";

const FACET: &str = "\
kind: Facet
metadata:
  name: base
config:
  - name: network
    value:
      cidr: 10.0.0.0/16
terraform:
  - name: cluster
    path: cluster
    inputs:
      cidr: ${network.cidr}
      size: ${size}
      token: ${token}
      label: token-${token}
";

const ORDERS: &str = "\
version: 2025-11-02
variables:
  env: {type: string}
  password: {type: string, secret: true}
include:
  network:
    path: network.yaml
    variables:
      env: ${variables.env}
resources:
  db:
    type: aws/rds/instance
    spec:
      name: orders-${variables.env}
      password: ${variables.password}
";

const NETWORK: &str = "\
version: 2025-11-02
variables:
  env: {type: string}
resources:
  vpc:
    type: aws/ec2/vpc
    spec:
      name: vpc-${variables.env}
";

const LEGACY: &str = "\
version: 2023-04-20
resources:
  queue:
    type: aws/sqs/queue
    spec: {name: legacy}
";

/// A repository and an empty folder for bpvm's temporary files, both
/// removed when dropped.
pub struct Fixture {
    repo: tempfile::TempDir,
    tmp: tempfile::TempDir,
}

impl Fixture {
    /// The repository, everything committed on `main`.
    pub fn committed(name: &str) -> Fixture {
        let f = Fixture {
            repo: tempfile::Builder::new()
                .prefix(&format!("bpvm-diff-{name}-"))
                .tempdir()
                .unwrap(),
            tmp: tempfile::tempdir().unwrap(),
        };
        f.git(&["init", "-q", "-b", "main"]);
        f.write("infra/windsor.yaml", WINDSOR);
        f.write("infra/contexts/_template/schema.yaml", SCHEMA);
        f.write("infra/contexts/_template/facets/base.yaml", FACET);
        f.write("infra/contexts/dev/values.yaml", "size: 1\ntoken: s3cret-dev\n");
        f.write("infra/contexts/prod/values.yaml", "size: 3\ntoken: s3cret-prod\n");
        f.write("app/orders.yaml", ORDERS);
        f.write("app/network.yaml", NETWORK);
        f.write("app/orders.vars.yaml", "env: prod\npassword: hunter2\n");
        f.write("legacy.yaml", LEGACY);
        f.commit("start");
        f
    }

    /// The change the tests look at: dev's size and token, the orders'
    /// environment and password, and the included network's resource
    /// name (which the output does not show: an include prints its
    /// variables and exports); the
    /// legacy blueprint deleted, a new one added.
    pub fn change(&self) {
        self.write("infra/contexts/dev/values.yaml", "size: 2\ntoken: n3w-dev\n");
        self.write("app/orders.vars.yaml", "env: production\npassword: hunter3\n");
        self.write("app/network.yaml", &NETWORK.replace("vpc-", "network-"));
        std::fs::remove_file(self.dir().join("legacy.yaml")).unwrap();
        self.write("queue.yaml", &LEGACY.replace("legacy", "orders"));
    }

    pub fn dir(&self) -> &Path {
        self.repo.path()
    }

    pub fn tmp(&self) -> &Path {
        self.tmp.path()
    }

    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        let path = self.dir().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    pub fn git(&self, args: &[&str]) -> String {
        support::git(self.dir(), args)
    }

    pub fn commit(&self, message: &str) {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", message]);
    }
}
