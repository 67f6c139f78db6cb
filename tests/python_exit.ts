/**
 * The end of a Python script a test runs that reads or writes Parquet with
 * pyarrow (directly, or through pandas or polars): it flushes the output and
 * leaves without the interpreter's teardown. pyarrow's thread pools can abort
 * the process as it exits, after all the script's work is done and printed
 * ("terminate called without an active exception", exit status 134; apache/arrow
 * issue 34314): seen in about 1 run in 30 of a pandas read on a loaded
 * 2-core machine, 0 in 120 with this ending. A failure before it still exits
 * with Python's own status and traceback.
 */
export const EXIT_WITHOUT_TEARDOWN = `
import os as _os, sys as _sys
_sys.stdout.flush()
_sys.stderr.flush()
_os._exit(0)
`;
