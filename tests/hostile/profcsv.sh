#!/bin/sh
# Profiler CSV fields (issue 39, class 4): the fields are split by one RFC
# 4180 splitter, a quoted field may hold a newline, a row with more fields
# than its header is refused at FILE:LINE (nvprof's unquoted 1,234.5%
# shifted the columns and read as 1.00 %), and thousands separators are
# taken only between groups of three digits before the point ("0,96" read
# as 96 %, "9,6.87" and ",,,96.87" as 96.87 %).
. "$(dirname "$0")/common.inc"
K=builtin:colcopy:128:1024:4 # its kernel: fig3-colcopy-h128
NCU='"ID","Kernel Name","Metric Name","Metric Unit","Metric Value"'
NVM='"Device","Kernel","Invocations","Metric Name","Metric Description","Min","Max","Avg"'
# val NAME FILE RATE: validate reads the L1 rate RATE (percent, 2 decimals).
val() {
	"$R" validate -f json --measured "$2" "$K" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 0 ] && python3 -c '
import json, sys
k = json.load(open(sys.argv[1]))["kernels"][0]
sys.exit(abs(100 * k["l1"]["measured"] - float(sys.argv[2])) > 1e-9)' "$T/out" "$3"
	r=$?
	[ $r -eq 0 ] || { echo "# exit $rc"; sed 's/^/# /' "$T/err" | head -n 3; }
	check "$1" $r
}
# bad NAME FILE LINE MESSAGE-PART: refused with exit 2 at FILE:LINE.
bad() {
	"$R" validate --measured "$2" "$K" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] && grep -q "$2:$3: .*$4" "$T/err"
	r=$?
	[ $r -eq 0 ] || { echo "# exit $rc"; sed 's/^/# /' "$T/err" | head -n 3; }
	check "$1" $r
}
ncu() { { echo "$NCU"; echo "\"0\",\"fig3-colcopy-h128\",\"l1tex__t_sector_hit_rate.pct\",\"%\",\"$1\""; } >"$T/ncu.csv"; }

ncu '0,96'
bad "ncu \"0,96\": not a number (was 96 %)" "$T/ncu.csv" 2 "0,96"
ncu '9,6.87'
bad "ncu \"9,6.87\": not a number (was 96.87 %)" "$T/ncu.csv" 2 "9,6.87"
ncu ',,,96.87'
bad "ncu \",,,96.87\": not a number (was 96.87 %)" "$T/ncu.csv" 2 ",,,96.87"
ncu '1,2345'
bad "ncu \"1,2345\": a group of four digits, not a number" "$T/ncu.csv" 2 "1,2345"
ncu '96.8,7'
bad "ncu \"96.8,7\": a separator after the point, not a number" "$T/ncu.csv" 2 "96.8,7"
ncu '96.87'
val "ncu \"96.87\": 96.87 %" "$T/ncu.csv" 96.87
ncu '0,096.5'
val "ncu \"0,096.5\": groups of three, 96.5 %" "$T/ncu.csv" 96.5

# nvprof: an unquoted 1,234.5% is two fields: the row has one more than
# its header, refused (it read the last field, 234.5 -> clamped, or 1.00 %)
{ echo "$NVM"; echo '"K20 (0)","fig3-colcopy-h128",1,"global_hit_rate","Global Hit Rate",1,234.5%,1,234.5%,1,234.5%'; } >"$T/nvm.csv"
bad "nvprof row with unquoted thousands separators: more fields than the header, refused" "$T/nvm.csv" 2 "11 fields, the header has 8"
{ echo "$NVM"; echo '"K20 (0)","fig3-colcopy-h128",1,"global_hit_rate","Global Hit Rate",1.00%,1.00%,1.00%,96.87%'; } >"$T/nvm.csv"
bad "nvprof row with one field too many: refused" "$T/nvm.csv" 2 "9 fields, the header has 8"
{ echo "$NVM"; echo '"K20 (0)","fig3-colcopy-h128",1,"global_hit_rate","Global Hit Rate","1,234.5%","1,234.5%","96.87%"'; } >"$T/nvm.csv"
val "nvprof row with quoted separators: its fields in place, Avg 96.87 %" "$T/nvm.csv" 96.87

# RFC 4180: a quoted field may hold a newline (and "" a quote); the record
# is one row, and the next record's line is counted right
{
	echo "$NVM"
	printf '"K20 (0)","fig3-colcopy-h128",1,"global_hit_rate","Global\nHit ""Rate""\n(all)",1%%,1%%,"96.87%%"\n'
} >"$T/nl.csv"
val "a quoted field holding newlines: one record, read" "$T/nl.csv" 96.87
{
	echo "$NVM"
	printf '"K20 (0)","other",1,"global_hit_rate","Global\nHit\nRate",1%%,1%%,50%%\n'
	printf '"K20 (0)","fig3-colcopy-h128",1,"global_hit_rate","Global Hit Rate",1%%,1%%,"0,96"\n'
} >"$T/nl2.csv"
bad "after a record of three lines, an error names the next record's line (5)" "$T/nl2.csv" 5 "0,96"
{ echo "$NVM"; printf '"K20 (0)","fig3-colcopy-h128",1,"global_hit_rate","Global Hit Rate,1%%,1%%,96%%\n'; } >"$T/open.csv"
bad "a quote never closed: refused at the record's line" "$T/open.csv" 2 "unbalanced quotes"
# a quote in a profiler's "==" line or a comment is text: it opens no field
{ echo '==WARNING== a "quoted word'; echo "$NVM"; echo '# an odd " here too'; echo '"K20 (0)","fig3-colcopy-h128",1,"global_hit_rate","Global Hit Rate",1%,1%,"96.87%"'; } >"$T/warn.csv"
val "a quote in ==WARNING== and # lines: the rows after them still read" "$T/warn.csv" 96.87
