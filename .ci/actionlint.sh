#!/usr/bin/env bash
# actionlint over everything GitHub runs from this repository: the
# workflows; the composite action (action.yml), whose steps are checked as
# a workflow job with the action's inputs as the workflow's, since
# actionlint reads only workflows; and the workflow examples in docs/
# (each ```yaml block holding `jobs:`), as a user would paste them.
# Needs actionlint, shellcheck and python3 with PyYAML (.ci/tools.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 - "$work" <<'PY'
import pathlib, re, sys, yaml

work = pathlib.Path(sys.argv[1])
action = yaml.safe_load(open("action.yml"))
inputs = {
    name: {"description": spec.get("description", ""), "default": str(spec.get("default", ""))}
    for name, spec in action.get("inputs", {}).items()
}
job = {"runs-on": "ubuntu-latest", "steps": action["runs"]["steps"]}
workflow = {"name": "action.yml", "on": {"workflow_dispatch": {"inputs": inputs}}, "jobs": {"action": job}}
# `${{ github.token }}` is not allowed as a workflow_dispatch default.
for spec in inputs.values():
    spec["default"] = spec["default"].replace("${{ github.token }}", "")
(work / "action-steps.yml").write_text(yaml.safe_dump(workflow, sort_keys=False))

for doc in sorted(pathlib.Path("docs").glob("**/*.md")):
    blocks = re.findall(r"```yaml\n(.*?)```", doc.read_text(), re.S)
    for n, block in enumerate(blocks, 1):
        if re.search(r"^jobs:", block, re.M):
            (work / f"{doc.stem}-{n}.yml").write_text(block)
PY

actionlint .github/workflows/*.yml "$work"/*.yml
