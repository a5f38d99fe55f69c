"""Test session settings: the cache of `list` and `validate` results goes to a folder of the session's own."""
import os
import tempfile

# every test process (and the commands it starts) uses a fresh cache, never the user's
os.environ["RULEBOOK_CACHE_DIR"] = tempfile.mkdtemp(prefix="rulebook-test-cache-")
