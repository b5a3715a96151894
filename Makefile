# `sam build` builds each function through this Makefile: template.json gives every function
# `Metadata: {BuildMethod: makefile}`, and samconfig.toml sets `build_in_source`, so SAM runs
# `make build-<LogicalId>` here, in the repository (reusing .build), with ARTIFACTS_DIR set to
# the function's folder under .aws-sam/build. Each target packages that one function exactly as
# `gatehouse package` does and unpacks its zip there: the same bootstrap, byte for byte.
#
#   sam build                 # every function (release, static stdlib)
#   sam build Jwks            # one
#
# GATEHOUSE runs the CLI (the tests point it at the binary they built); PACKAGE_FLAGS adds
# `gatehouse package` options, e.g. `--configuration debug --no-build`.
GATEHOUSE ?= swift run gatehouse
PACKAGE_FLAGS ?=
PACKAGE_DIR ?= .build/sam-package

build-%:
	$(GATEHOUSE) package $* --output "$(PACKAGE_DIR)" $(PACKAGE_FLAGS)
	unzip -o -q "$(PACKAGE_DIR)/$*.zip" -d "$(ARTIFACTS_DIR)"
