"""A PEP 517 build backend for pre-commit's `language: python` hooks.

pre-commit installs a `language: python` hook with `pip install .` in this
repository, then the hook's additional_dependencies (the mcplint wheel,
pinned in .pre-commit-hooks.yaml). mcplint is a Go program, so `.` is an
empty package, mcplint-pre-commit, built by this backend (pyproject.toml at
the repository root names it): Python 3 standard library only, no
setuptools, no network, nothing built from the repository's files.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import build_wheel as wheels  # noqa: E402

NAME = "mcplint_pre_commit"
VERSION = "0"
TAG = "py3-none-any"


def _metadata():
    return ("Metadata-Version: 2.1\nName: mcplint-pre-commit\nVersion: %s\n"
            "Summary: Installs nothing: pre-commit's mcplint hooks install the mcplint wheel "
            "as an additional dependency.\n" % VERSION).encode()


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    dist_info = "%s-%s.dist-info" % (NAME, VERSION)
    os.makedirs(os.path.join(metadata_directory, dist_info), exist_ok=True)
    with open(os.path.join(metadata_directory, dist_info, "METADATA"), "wb") as f:
        f.write(_metadata())
    return dist_info


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    dist = "%s-%s" % (NAME, VERSION)
    files = [
        ("%s.dist-info/METADATA" % dist, _metadata(), 0o644),
        ("%s.dist-info/WHEEL" % dist, wheels.wheel_file("mcplint scripts/pre_commit_backend.py", TAG, purelib=True), 0o644),
    ]
    return os.path.basename(wheels.write_wheel(wheel_directory, dist, TAG, files))
