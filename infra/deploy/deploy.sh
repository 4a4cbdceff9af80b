#!/usr/bin/env bash
# Deploys what build.sh built: `sam deploy` of template.yaml and its
# nested stacks in stacks/ (every
# function's code is the one bootstrap in target/lambda/bootstrap/, no
# `sam build`; SAM uploads it once),
# then web/dist to the site bucket and a CloudFront invalidation.
#
# Settings (environment):
#   STACK_NAME       stack to create or update (default: samconfig.toml's, else "backoffice")
#   AWS_REGION       region (default: samconfig.toml's, else the AWS CLI's)
#   JWT_SECRET_NAME  Secrets Manager secret holding the JWT secret; needed
#                    unless samconfig.toml (from `sam deploy --guided`) has it
#   SECRETS_EXTENSION_LAYER_ARN
#                    the AWS Parameters and Secrets Lambda Extension layer of
#                    the region and ARCH (the functions read their secrets
#                    through it); needed unless samconfig.toml has it
#   ARCH             arm64 (default) or x86_64: what build.sh built for
#   STAGE            the Stage parameter (tags, alarm names); default: the
#                    template's (production)
#   AWS_CFN_EXECUTION_ROLE_ARN
#                    the role CloudFormation deploys with (the deploy-role
#                    stack's output; the pipeline's role may only pass it)
#   ARTIFACT_BUCKET  where sam uploads the bootstrap's zip and the nested
#                    templates (the deploy-role stack's output); default:
#                    samconfig.toml's, else a bucket SAM manages
#   DOMAIN_NAME, CERTIFICATE_ARN
#                    optional, together: the site's own domain and its ACM
#                    certificate (us-east-1); CloudFront then serves it at
#                    TLS 1.2 or newer (see infra/deploy/README.md)
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() { echo "error: $*" >&2; exit 1; }
need() { command -v "$1" >/dev/null 2>&1 || fail "'$1' is not installed: $2"; }
need sam "pip install aws-sam-cli"
need aws "install the AWS CLI v2 (https://docs.aws.amazon.com/cli/)"
export SAM_CLI_TELEMETRY=0

# Refuse a half build: a missing bootstrap would deploy an empty function.
[ -f web/dist/index.html ] || fail "web/dist is not built: run infra/deploy/build.sh first"
# The CodeUris are in the nested stacks, relative to stacks/.
for uri in $(sed -n "s/^ *CodeUri: //p" stacks/*.yaml | tr -d "'" | sort -u); do
  uri="stacks/$uri"
  [ -x "$uri/bootstrap" ] || fail "$uri/bootstrap is missing: run infra/deploy/build.sh first"
done

# What samconfig.toml (written by `sam deploy --guided`) already says.
from_samconfig() { [ -f samconfig.toml ] && sed -n "s/^$1 *= *\"\(.*\)\"/\1/p" samconfig.toml | head -n1 || true; }
stack="${STACK_NAME:-$(from_samconfig stack_name)}"
stack="${stack:-backoffice}"
region="${AWS_REGION:-$(from_samconfig region)}"

args=(--template-file template.yaml --stack-name "$stack" --capabilities CAPABILITY_IAM CAPABILITY_AUTO_EXPAND --no-fail-on-empty-changeset)
[ -n "$region" ] && args+=(--region "$region")
arch="${ARCH:-arm64}"
case "$arch" in arm64|x86_64) ;; *) fail "ARCH must be arm64 or x86_64, not '$arch'" ;; esac
overrides=("Architecture=$arch")
[ -n "${STAGE:-}" ] && overrides+=("Stage=$STAGE")
[ -n "${AWS_CFN_EXECUTION_ROLE_ARN:-}" ] && args+=(--role-arn "$AWS_CFN_EXECUTION_ROLE_ARN")
if [ -n "${JWT_SECRET_NAME:-}" ]; then
  overrides+=("JwtSecretName=$JWT_SECRET_NAME")
elif ! grep -q JwtSecretName samconfig.toml 2>/dev/null; then
  fail "set JWT_SECRET_NAME to the Secrets Manager secret's name (see infra/deploy/README.md), or run 'sam deploy --guided' once"
fi
if [ -n "${SECRETS_EXTENSION_LAYER_ARN:-}" ]; then
  overrides+=("SecretsExtensionLayerArn=$SECRETS_EXTENSION_LAYER_ARN")
elif ! grep -q SecretsExtensionLayerArn samconfig.toml 2>/dev/null; then
  fail "set SECRETS_EXTENSION_LAYER_ARN to the Parameters and Secrets Lambda Extension layer of the region and ARCH (see infra/deploy/README.md), or run 'sam deploy --guided' once"
fi
if [ -n "${DOMAIN_NAME:-}${CERTIFICATE_ARN:-}" ]; then
  [ -n "${DOMAIN_NAME:-}" ] && [ -n "${CERTIFICATE_ARN:-}" ] || fail "set DOMAIN_NAME and CERTIFICATE_ARN together (the domain and its ACM certificate in us-east-1), or neither"
  overrides+=("DomainName=$DOMAIN_NAME" "CertificateArn=$CERTIFICATE_ARN")
fi
args+=(--parameter-overrides "${overrides[@]}")
# The pipeline's bucket, or samconfig.toml's; otherwise let SAM manage one.
if [ -n "${ARTIFACT_BUCKET:-}" ]; then
  args+=(--s3-bucket "$ARTIFACT_BUCKET" --s3-prefix "$stack")
elif [ ! -f samconfig.toml ]; then
  args+=(--resolve-s3)
fi
# Pipelines cannot answer the change-set prompt.
[ -n "${CI:-}" ] && args+=(--no-confirm-changeset)

echo "==> sam deploy ($stack)"
sam deploy "${args[@]}"

aws_region=()
[ -n "$region" ] && aws_region=(--region "$region")
output() {
  aws cloudformation describe-stacks "${aws_region[@]}" --stack-name "$stack" \
    --query "Stacks[0].Outputs[?OutputKey=='$1'].OutputValue" --output text
}
bucket="$(output SiteBucketName)"
distribution="$(output DistributionId)"
[ -n "$bucket" ] && [ "$bucket" != None ] || fail "stack $stack has no SiteBucketName output"

echo "==> web/dist -> s3://$bucket"
# Hashed assets (vite's assetsDir, "static") never change, so browsers may
# keep them; old ones stay so a page loaded before the deploy can still
# fetch its chunks. The local gateway caches the same directory the same way.
if [ -d web/dist/static ]; then
  aws s3 sync "${aws_region[@]}" web/dist/static "s3://$bucket/static" --exclude '*.br' --exclude '*.gz' \
    --cache-control "public, max-age=31536000, immutable"
fi
# Everything else (index.html, sw.js, icons) is revalidated on each visit.
# (The .br/.gz copies are for the local gateway; CloudFront compresses itself.)
aws s3 sync "${aws_region[@]}" web/dist "s3://$bucket" --exclude 'static/*' --exclude '*.br' --exclude '*.gz' --delete \
  --cache-control "no-cache"

echo "==> CloudFront invalidation ($distribution)"
aws cloudfront create-invalidation --distribution-id "$distribution" --paths '/*' --output text >/dev/null

echo "==> deployed: $(output SiteUrl)"
