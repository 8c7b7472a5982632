#!/usr/bin/env python3
"""Compare model.py and skewer on one hand-written scenario.
Usage: check_one.py FILE   (JSON, or YAML when PyYAML is installed, e.g. the
files of repro/; prints mismatches; -v dumps the model's output)"""
import json, os, subprocess, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import model, run
path = [a for a in sys.argv[1:] if not a.startswith("-")][0]
with open(path) as f:
    text = f.read()
try:
    scen = json.loads(text)
except ValueError:
    import yaml                     # repro/*.yaml: plain YAML
    scen = yaml.safe_load(text)
exp = model.run(scen)
got = json.loads(subprocess.run([run.SKEWER, "explain", "--json", path], capture_output=True, text=True, check=True).stdout)
mm = run.compare(exp, got)
for m in mm:
    print(m)
if "-v" in sys.argv:
    print(json.dumps(exp, indent=1))
print("%d mismatches" % len(mm))
