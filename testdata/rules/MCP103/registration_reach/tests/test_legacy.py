# Importing a module in a test registers its tools only while the tests run.
import monorepo.legacy_tools  # noqa: F401
