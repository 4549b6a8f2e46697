"""Whether fixloop's Python probe generates calls around a function's (fixloop_probe.py).

After a probed run that generated calls broke a test the patch fixed, the assessment runs the
versions again without them (probe-checkout.ts writes a file in the probe's folder): first without
those around functions nested in another (`nested` in the file: a closure's generated call changes
the locals of the call around it), then without any (an empty file). Standard library only.
"""
import os

NO_GENERATED = "no-generated-inputs"

def generates(folder, qualified_name):
    """Whether calls are generated around the function of that qualified name in this run."""
    try:
        with open(os.path.join(folder, NO_GENERATED)) as said:
            return said.read().strip() == "nested" and "<locals>" not in qualified_name
    except OSError:
        return True
