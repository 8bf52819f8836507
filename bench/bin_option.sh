# Sourced by bench's shell entry points with their arguments: sets BIN from --bin PATH or
# --bin=PATH (made absolute, relative to where the script is run), else from MUSICGRAPH (empty:
# the script builds the release binary), and ARGS to the other arguments; --help prints the
# entry point's header comment ($0 is the entry point's name) and exits; another option exits 2.
BIN=${MUSICGRAPH:-}
ARGS=()
while (($#)); do
  case $1 in
    --bin) [[ $# -ge 2 ]] || { echo "$0: --bin needs a path" >&2; exit 2; }; BIN=$(realpath -m -- "$2"); shift 2 ;;
    --bin=*) BIN=$(realpath -m -- "${1#--bin=}"); shift ;;
    -h | --help) awk 'NR > 1 { if (!/^#/) exit; sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    -*) echo "$0: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) ARGS+=("$1"); shift ;;
  esac
done
