#!/usr/bin/env bash
# Runs a command under the Node.js major version the functions run on in Lambda (the stack's runtime,
# read from infra/constructs/api-function.ts), fetched once from the npm registry into
# node_modules/.cache/lambda-node/ (the registry's node-<platform>-<arch> packages hold the official
# binaries). Development and CI run on an older Node; what Lambda runs must load and answer on both.
#   test/lambda-node.sh npx vitest run test/infra/bundles.test.ts     (npm run test:lambda-node)
set -euo pipefail
cd "$(dirname "$0")/.."

major=$(sed -n 's/.*Runtime\.NODEJS_\([0-9][0-9]*\)_X.*/\1/p' infra/constructs/api-function.ts | head -n 1)
if [ -z "$major" ]; then
  echo "lambda-node: no Runtime.NODEJS_<major>_X in infra/constructs/api-function.ts" >&2
  exit 1
fi
platform=$(node -p 'process.platform + "-" + process.arch')
dir="node_modules/.cache/lambda-node/$major-$platform"

if [ ! -x "$dir/bin/node" ]; then
  download=$(mktemp -d)
  trap 'rm -rf "$download"' EXIT
  (cd "$download" && npm pack --silent "node-$platform@$major" >/dev/null && tar xzf node-*.tgz)
  mkdir -p "$dir"
  cp -R "$download/package/." "$dir/"
  # Removed here: the exec below replaces this shell, so an EXIT trap would never run (50 MB per fetch).
  rm -rf "$download"
  trap - EXIT
fi

echo "lambda-node: Node.js $("$dir/bin/node" --version), the Lambda runtime's major version" >&2
# npx, npm and every `#!/usr/bin/env node` script now start this Node.
PATH="$PWD/$dir/bin:$PATH" exec "$@"
