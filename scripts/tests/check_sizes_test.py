#!/usr/bin/env python3
"""check_sizes.py finds every function of a fixture with its exact length, through the
constructs that fool a line-based counter (braces in comments, strings, raw strings, char
literals and macros; constructor initialiser lists with braces; operators; lambdas; extern
"C"), flags the one over the limit, honours an allow-list entry, and reports a stale one."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import check_sizes  # noqa: E402

FIXTURE = os.path.join(HERE, "size_fixture_long_function.cpp")
SCRIPT = os.path.join(os.path.dirname(HERE), "check_sizes.py")


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


class CheckSizes(unittest.TestCase):
    def test_functions_and_lengths(self):
        with open(FIXTURE) as f:
            found = [(name, first, last - first + 1) for name, first, last in check_sizes.scan(f.read())]
        self.assertEqual(found, [
            ("Point", 16, 3),
            ("operator()", 19, 1),
            ("operator==", 20, 1),
            ("long_function", 25, 152),
            ("Point_max", 178, 6),
            ("c_entry", 188, 1),
        ])

    def test_long_function_fails_and_an_entry_excuses_it(self):
        with tempfile.TemporaryDirectory() as d:
            empty = os.path.join(d, "none.txt")
            open(empty, "w").close()
            r = run("--root", HERE, "--allowlist", empty, "size_fixture_long_function.cpp")
            self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
            self.assertIn("size_fixture_long_function.cpp:25: function long_function has 152 lines", r.stderr)
            listed = os.path.join(d, "allow.txt")
            with open(listed, "w") as f:
                f.write("size_fixture_long_function.cpp long_function -- a fixture: long on purpose\n")
            r = run("--root", HERE, "--allowlist", listed, "size_fixture_long_function.cpp")
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_entry_without_reason_is_refused(self):
        with tempfile.TemporaryDirectory() as d:
            bad = os.path.join(d, "allow.txt")
            with open(bad, "w") as f:
                f.write("size_fixture_long_function.cpp long_function\n")
            r = run("--root", HERE, "--allowlist", bad, "size_fixture_long_function.cpp")
            self.assertNotEqual(r.returncode, 0)
            self.assertIn("needs ' -- ' and a reason", r.stdout + r.stderr)

    def test_long_file_and_unbalanced_braces(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "long.cpp"), "w") as f:
                f.write("int x;\n" * 801)
            with open(os.path.join(d, "broken.cpp"), "w") as f:
                f.write("void f() {\n  if (x) {\n}\n")
            empty = os.path.join(d, "none.txt")
            open(empty, "w").close()
            r = run("--root", d, "--allowlist", empty, "long.cpp", "broken.cpp")
            self.assertEqual(r.returncode, 1)
            self.assertIn("long.cpp: 801 lines (limit 800)", r.stderr)
            self.assertIn("broken.cpp: cannot count functions", r.stderr)


if __name__ == "__main__":
    unittest.main()
