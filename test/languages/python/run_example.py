"""Runs one program of a resource's Example Usage (scripts/plugin/examples) on the generated
Python SDK with Pulumi's mocks: no engine, no service. Prints, as JSON, every resource it
registers (its type, its name and the input names the SDK sent) and every function it invokes. A
keyword the SDK does not take fails the run, as it would fail `pulumi up`.

    python run_example.py PROGRAM.py
"""
import json, runpy, sys
import pulumi
from pulumi.runtime.sync_await import _sync_await
from pulumi.runtime.stack import wait_for_rpcs

registered = []

class Mocks(pulumi.runtime.Mocks):
    def new_resource(self, args):
        registered.append({"type": args.typ, "name": args.name, "inputs": sorted(args.inputs.keys())})
        return [f"{args.name}-id", dict(args.inputs)]

    def call(self, args):
        registered.append({"function": args.token, "inputs": sorted(args.args.keys())})
        # What a lookup of a workspace returns, as much as the examples read of it.
        return {"id": "ws-1", "name": "web", "project": "prj-1"}

# A stack's configuration as an example's reader would have set it: every key has a value.
_get = pulumi.Config._get
pulumi.Config._get = lambda self, key, *args, **kwargs: _get(self, key, *args, **kwargs) or f"example-{key}"

pulumi.runtime.set_mocks(Mocks(), project="examples", stack="examples", preview=False)
runpy.run_path(sys.argv[1], run_name="__main__")
_sync_await(wait_for_rpcs())
print(json.dumps(registered))
