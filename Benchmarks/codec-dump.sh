# The preamble the codec scripts share (sourced, not run; run-decode.sh, run-encode.sh): takes `--no-build` off
# their arguments, builds codec-loop (one of the package's opt-in benchmark targets, in a scratch path of their
# own) unless told not to, installs orjson for the Python side when missing, and writes the benchmark's params and
# requests (`codec-loop dump`) into a scratch folder, $dump, removed when the script ends.
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ "${1:-}" = "--no-build" ]; then
    shift
else
    TALLY_BENCHMARKS=1 swift build --scratch-path .build-bench -c release --product codec-loop >&2
fi
codec_arguments=("$@")
python3 -c 'import orjson' 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check orjson >&2
dump="$(mktemp -d -t tally-codec.XXXXXX)"
trap 'rm -rf "$dump"' EXIT
.build-bench/release/codec-loop dump "$dump"
