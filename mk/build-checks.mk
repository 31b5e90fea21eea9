# check-build: the plain build as a distribution runs it (tests/build/test_build.sh):
# a distribution's CFLAGS/CXXFLAGS/LDFLAGS on every compile and link line (from
# configure's environment, make's command line and make's environment), the project's
# required flags after them, and a byte-identical libfloatadm.so from a second
# directory.  Copies of the tree, each built with defaults: about two builds of the core.
# SPDX-License-Identifier: LGPL-2.1-or-later

.PHONY: check-build

# Through a variable, not $(MAKE) itself: make -n check-build must not run the test.
BUILD_TEST_MAKE = $(MAKE)
check-build:
	sh tests/build/test_build.sh "$(BUILD_TEST_MAKE)" 2
