#!/usr/bin/env python3
"""Compare model.py and skewer on one hand-written scenario (JSON/YAML-as-JSON file).
Usage: check_one.py FILE.json   (prints mismatches; -v dumps both outputs)"""
import json, os, subprocess, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import model, run
path = [a for a in sys.argv[1:] if not a.startswith("-")][0]
scen = json.load(open(path))
exp = model.run(scen)
got = json.loads(subprocess.run([run.SKEWER, "explain", "--json", path], capture_output=True, text=True, check=True).stdout)
mm = run.compare(exp, got)
for m in mm:
    print(m)
if "-v" in sys.argv:
    print(json.dumps(exp, indent=1))
print("%d mismatches" % len(mm))
