# Bad input through build/bin/ffmpeg and float_adm_score: `make check-robustness`,
# part of `make check` (a few seconds).
# SPDX-License-Identifier: LGPL-2.1-or-later

.PHONY: check-robustness

check-robustness: $(BUILD)/bin/ffmpeg $(CLI_BIN)
	sh tests/robustness/test_ffmpeg.sh $(BUILD)/bin/ffmpeg
	sh tests/robustness/test_cli.sh $(CLI_BIN)

check: check-robustness
