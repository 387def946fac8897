#!/bin/sh
# End-to-end tests of the SVG for slides (issue 16, item 7) against the
# real binary ($RDSCOPE): --plot-size sets the canvas, text is at least
# 16 px at the default size, every sweep bar is labelled with its varied
# values, every run has its histogram with its tallest bins counted, the
# hits are drawn in the bars. Prints "ok - NAME" or "not ok - NAME".
. "$(dirname "$0")/common.inc"

# check SVG CSV HIST WHAT: one property of an SVG against the runs' CSV
# and --histogram rows (python3: the checks need the document's tree).
check() {
	python3 - "$@" <<'EOF'
import csv, re, sys
import xml.etree.ElementTree as ET
svg, runs_csv, hist_csv, what = sys.argv[1:5]
NS = '{http://www.w3.org/2000/svg}'
root = ET.parse(svg).getroot()
runs = list(csv.DictReader(open(runs_csv)))
def fail(msg):
    print('# ' + msg)
    sys.exit(1)
def groups(cls):
    return [g for g in root.iter(NS + 'g') if g.get('class') == cls]
if what == 'fonts':
    sizes = [float(e.get('font-size')) for e in root.iter() if e.get('font-size')]
    if not sizes or root.get('font-size') is None:
        fail('no font-size')
    if min(sizes) < 16:
        fail('smallest font-size %g' % min(sizes))
elif what == 'labels':
    keys = ('l1.ways', 'latency.miss') # the sweep's, in --vary order
    points = groups('point')
    if len(points) != len(runs):
        fail('%d bars for %d runs' % (len(points), len(runs)))
    for g, r in zip(points, runs):
        want = ' '.join('%s=%s' % (k, r[k]) for k in keys)
        got = [t.text for t in g.iter(NS + 'text') if t.get('class') == 'bar-label']
        if got != [want]:
            fail('run %s: bar labelled %r, not %r' % (r['run'], got, want))
        if g.get('data-run') != r['run']:
            fail('bar %s is run %s' % (g.get('data-run'), r['run']))
elif what == 'histograms':
    hs = groups('histogram')
    if [h.get('data-run') for h in hs] != [r['run'] for r in runs]:
        fail('histograms of runs %s' % [h.get('data-run') for h in hs])
    # The tallest bin of each run (here one bin per distance) is counted.
    tallest = {}
    for row in csv.DictReader(open(hist_csv)):
        tallest[row['run']] = max(tallest.get(row['run'], 0), int(row['count']))
    for h in hs:
        counts = [t.text for t in h.iter(NS + 'text') if t.get('class') == 'count']
        if str(tallest[h.get('data-run')]) not in counts:
            fail('run %s: tallest bin %d not among the labels %s' % (h.get('data-run'), tallest[h.get('data-run')], counts))
        if not [l for l in h.iter(NS + 'line') if l.get('class') == 'cutoff']:
            fail('run %s: no cut-off line' % h.get('data-run'))
elif what == 'hits':
    for g, r in zip(groups('point'), runs):
        hit = [e for e in g.iter(NS + 'rect') if e.get('class') == 'hit']
        if int(r['hits']) == 0:
            if hit:
                fail('run %s: no hits, a hit bar' % r['run'])
            continue
        if len(hit) != 1:
            fail('run %s: %d hits, no hit bar' % (r['run'], int(r['hits'])))
        # Its length against the whole bar: the share of hits.
        segs = [e for e in g.iter(NS + 'rect')]
        total = sum(float(e.get('width')) for e in segs)
        share = float(hit[0].get('width')) / total
        want = int(r['hits']) / int(r['requests'])
        if abs(share - want) > 0.01:
            fail('run %s: hits drawn as %.3f of the bar, are %.3f' % (r['run'], share, want))
else:
    fail('unknown check ' + what)
EOF
}
size_of() { # the root's width and height: "WxH", and its viewBox
	[ -f "$1" ] && python3 -c "import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
print(r.get('width') + 'x' + r.get('height'), r.get('viewBox'))" "$1"
}

T2=samples/paper/table2.trc
IN="builtin:colcopy:4:8 $T2"
V="--vary l1.ways=1,2,4 --vary latency.miss=0,100"

# ---------------------------------------------------------------- size
rds sweep -q --no-timing -p fermi-16k -s l1.hash=mod $V -f csv -o "$T/d.csv" \
	--histogram "$T/d.h" --plot "$T/d.svg" $IN
[ $rc -eq 0 ] && xmllint --noout "$T/d.svg" && [ "$(size_of "$T/d.svg")" = "1920x1080 0 0 1920 1080" ]
result "--plot: a 16:9 slide by default (1920x1080)" $?

# A dozen histograms do not fit 720 rows at 16 px: two of them do.
for s in 1280x720 1920x1080 1024x768; do
	rds sweep -q --no-timing -p fermi-16k -s l1.hash=mod $V -f csv -o "$T/s.csv" \
		--plot "$T/s.svg" --plot-size $s --plot-hist 0,7 $IN
	[ $rc -eq 0 ] && [ "$(size_of "$T/s.svg")" = "$s 0 0 $(echo $s | tr x ' ')" ]
	result "--plot-size $s: the canvas is $s" $?
done

[ "$(xmllint --xpath '//*[local-name()="g"][@class="histogram"]/@data-run' "$T/s.svg" 2>/dev/null | tr -d ' \n')" = 'data-run="0"data-run="7"' ]
result "--plot-hist 0,7: the histograms of runs 0 and 7" $?
rds sweep -q --no-timing -p fermi-16k -s l1.hash=mod $V -f csv -o "$T/s.csv" \
	--plot "$T/s.svg" --plot-hist none $IN
[ $rc -eq 0 ] && [ "$(xmllint --xpath 'count(//*[local-name()="g"][@class="histogram"])' "$T/s.svg")" = 0 ] &&
	[ "$(xmllint --xpath 'count(//*[local-name()="g"][@class="point"])' "$T/s.svg")" = 12 ] &&
	[ "$(size_of "$T/s.svg")" = "1920x1080 0 0 1920 1080" ]
result "--plot-hist none: bars only" $?

rds run -q -p fermi-16k --plot "$T/r.svg" --plot-size 1280x720 -o "$T/r.txt" builtin:fig3
[ $rc -eq 0 ] && [ "$(size_of "$T/r.svg")" = "1280x720 0 0 1280 720" ]
result "run --plot-size 1280x720: the canvas is 1280x720" $?

ok=0
for bad in 1920 12x9 1920x1080x 1920X1080 x720 1280x99999; do
	rds run -q --plot "$T/b.svg" --plot-size "$bad" -o "$T/b.txt" builtin:fig3
	[ $rc -eq 2 ] && [ ! -e "$T/b.svg" ] && grep -q "^rdscope: --plot-size: expected WxH.*got '$bad'" "$T/err" ||
		{ echo "# --plot-size $bad: status $rc, $(head -n 1 "$T/err")"; ok=1; }
done
rds run -q --plot-size 1280x720 -o "$T/b.txt" builtin:fig3
[ $rc -eq 2 ] && grep -q '^rdscope: --plot-size: without --plot' "$T/err" || ok=1
for bad in 1,,2 -1 al 0x5 "1 2" 1234567890; do
	rds run -q --plot "$T/b.svg" --plot-hist "$bad" -o "$T/b.txt" builtin:fig3
	[ $rc -eq 2 ] && [ ! -e "$T/b.svg" ] && grep -q "^rdscope: --plot-hist: expected all, none or run numbers.*got '$bad'" "$T/err" ||
		{ echo "# --plot-hist $bad: status $rc, $(head -n 1 "$T/err")"; ok=1; }
done
rds run -q --plot-hist 0 -o "$T/b.txt" builtin:fig3
[ $rc -eq 2 ] && grep -q '^rdscope: --plot-hist: without --plot' "$T/err" || ok=1
result "--plot-size, --plot-hist: a malformed value, or no --plot, is a usage error" $ok

# ---------------------------------------------------------------- text
check "$T/d.svg" "$T/d.csv" "$T/d.h" fonts
result "--plot: no text smaller than 16 px at the default size" $?

rds sweep -q --no-timing -p fermi-16k -s l1.hash=mod $V -f csv -o "$T/s.csv" \
	--plot "$T/s.svg" --plot-size 1280x720 $IN
[ $rc -eq 0 ] && check "$T/s.svg" "$T/s.csv" "$T/d.h" fonts
result "--plot-size 1280x720: no text smaller than 16 px" $?

check "$T/d.svg" "$T/d.csv" "$T/d.h" labels
result "--plot: every sweep bar labelled with its varied values" $?

# ---------------------------------------------------------- histograms
check "$T/d.svg" "$T/d.csv" "$T/d.h" histograms
result "--plot: a histogram per run, its tallest bin counted, its cut-off drawn" $?

# ---------------------------------------------------------------- hits
check "$T/d.svg" "$T/d.csv" "$T/d.h" hits
result "--plot: the hits drawn in each bar, as long as their share" $?

# Many runs: wider than a slide holds at 16 px, so the picture grows
# downward, keeping its width and its text size, and labels every bar.
rds sweep -q --no-timing -p fermi-16k -s l1.hash=mod --vary l1.ways=1,2,4,8 \
	--vary latency.miss=0,50,100,150,200,250,300,350 -f csv -o "$T/m.csv" \
	--plot "$T/m.svg" --plot-size 1280x720 $IN
w=$(size_of "$T/m.svg")
[ $rc -eq 0 ] && [ "${w%%x*}" = 1280 ] && h=${w#*x} && h=${h%% *} && [ "$h" -gt 720 ] &&
	check "$T/m.svg" "$T/m.csv" "$T/d.h" fonts &&
	[ "$(xmllint --xpath 'count(//*[local-name()="text"][@class="bar-label"])' "$T/m.svg")" = 64 ]
result "--plot: 64 runs at 1280x720 grow downward, 16 px text, every bar labelled" $?
