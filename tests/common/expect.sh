# Helpers the tool's shell tests share (sourced): pass/fail counters and
# expect. The caller sets pass=0 fail=0 and works in a scratch folder.

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

# expect STATUS DESCRIPTION -- command...: runs it, stdout to out, stderr to err.
expect() {
  local want=$1 what=$2
  shift 3
  "$@" >out 2>err
  local got=$?
  if [ "$got" -eq "$want" ]; then ok; else
    bad "$what: exit $got, want $want"
    sed 's/^/    stderr: /' err | head -5 >&2
  fi
}
