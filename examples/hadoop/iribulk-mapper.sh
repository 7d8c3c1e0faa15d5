#!/bin/sh
# Hadoop Streaming mapper: iribulk on the lines of one input split, one output line per input
# line. Ship the binary beside it with `-file`; extra arguments are iribulk flags.
#
# Exit status: iribulk exits 3 when some line was reported and kept (--on-error keep); that is
# not a failed task, so --exit-zero keeps it 0. 1 (fatal) and 2 (usage) still fail the task.
# Reported lines go to the task's stderr log (--errors /dev/stderr).
if [ -x ./iribulk ]; then bin=./iribulk; else bin=iribulk; fi
exec "$bin" --quiet --exit-zero --on-error keep --errors /dev/stderr "$@"
