# The install test: make install and uninstall into temporary prefixes (the README's C
# example built with pkg-config against the installed library, shared and static; the
# exported symbols and SONAMEs; the man page), and make deb (contents, dependencies,
# installed and purged in a throwaway dpkg root).  mk/install.mk has the rules.
# SPDX-License-Identifier: LGPL-2.1-or-later
.PHONY: check-install

check: check-install

# Through a variable, not $(MAKE) itself: make -n check must not run the test.
INSTALL_TEST_MAKE = $(MAKE)
# The Python package staged first: make install installs it where staged, and the
# test looks for it in the .deb.
check-install: install-prereqs python
	sh tests/install/test_install.sh "$(INSTALL_TEST_MAKE)" $(BUILD) "$(CC)"
