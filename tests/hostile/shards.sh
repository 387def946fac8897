#!/bin/sh
# merge joins only what belongs together (issue 24, class 6): shards of
# another sweep (another -s, other --vary values), rows with a field too
# many, and damaged JSON runs are refused with the reason, exit 2.
. "$(dirname "$0")/common.inc"
IN=samples/paper/table2.trc
S="sweep -q -p toy-table2 --no-timing --vary l1.ways=1,2 --vary latency.miss=0,5"
for fmt in csv json; do
	for k in 0 1; do
		"$R" $S --shard $k/2 -f $fmt -o "$T/s$k.$fmt" "$IN" "$IN" 2>/dev/null
	done
	"$R" $S -f $fmt "$IN" "$IN" >"$T/whole.$fmt" 2>/dev/null
	"$R" merge "$T/s0.$fmt" "$T/s1.$fmt" >"$T/m.$fmt" 2>/dev/null && cmp -s "$T/m.$fmt" "$T/whole.$fmt"
	check "$fmt: the shards of one sweep still merge into the whole sweep, byte for byte" $?
	"$R" $S -s latency.hit=7 --shard 1/2 -f $fmt -o "$T/x.$fmt" "$IN" "$IN" 2>/dev/null
	"$R" merge "$T/s0.$fmt" "$T/x.$fmt" >"$T/out" 2>"$T/err"
	[ $? -eq 2 ] && [ ! -s "$T/out" ] && grep -q "x.$fmt: .*\(another sweep\|not of the same sweep\)" "$T/err"
	check "$fmt: a shard run with another -s is refused" $?
	"$R" sweep -q -p toy-table2 --no-timing --vary l1.ways=1,2 --vary latency.miss=0,9 --shard 1/2 \
		-f $fmt -o "$T/y.$fmt" "$IN" "$IN" 2>/dev/null
	"$R" merge "$T/s0.$fmt" "$T/y.$fmt" >"$T/out" 2>"$T/err"
	[ $? -eq 2 ] && [ ! -s "$T/out" ] && grep -q "y.$fmt: .*\(another sweep\|not of the same sweep\)" "$T/err"
	check "$fmt: a shard with other --vary values is refused" $?
done
sed '2s/$/,extra/' "$T/s1.csv" >"$T/f.csv"
nf=$(head -n 1 "$T/s1.csv" | awk -F, '{ print NF }')
"$R" merge "$T/s0.csv" "$T/f.csv" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "f.csv: run 1 has $((nf + 1)) fields, the header $nf" "$T/err"
check "csv: a row with a field too many is refused" $?
sed 's/"misses":[0-9]*/"misses":"garbage"/' "$T/s1.json" >"$T/g.json"
"$R" merge "$T/s0.json" "$T/g.json" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && [ ! -s "$T/out" ] && grep -q 'g.json: run 1: a count or rate that is not a number' "$T/err"
check 'json: "misses":"garbage" is refused' $?
awk 'NR == 2 { sub(/},?$/, ""); printf "%s,\"x\":", $0; for (i = 0; i < 200000; i++) printf "["; for (i = 0; i < 200000; i++) printf "]"; print "}," ; next } { print }' \
	"$T/s1.json" >"$T/n.json"
"$R" merge "$T/s0.json" "$T/n.json" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && [ ! -s "$T/out" ] && grep -q 'n.json: run 1: JSON nested too deeply' "$T/err"
check "json: 200000 nested [ in a run is refused" $?
sed '2s/,"kernel"/,"kernel",/' "$T/s1.json" >"$T/b.json"
"$R" merge "$T/s0.json" "$T/b.json" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q 'b.json: run 1: malformed JSON' "$T/err"
check "json: a run that is not valid JSON is refused" $?
# Damage that looks like JSON to a lenient reader: the last member of an
# object without its value, a trailing comma, numbers JSON has no
# spelling for, an escape JSON does not have.
cat >"$T/damage" <<'EOF'
s/"cancels":[0-9]*}/"cancels":}/
s/"cancels":\([0-9]*\)}/"cancels":\1,}/
s/"misses":[0-9]*/"misses":-inf/
s/"misses":[0-9]*/"misses":0x1F/
s/"kernel":"/"kernel":"\\q/
EOF
i=0
while IFS= read -r damage; do
	i=$((i + 1))
	sed "2$damage" "$T/s1.json" >"$T/d$i.json"
	cmp -s "$T/d$i.json" "$T/s1.json" && echo "# damage $i changed nothing"
	"$R" merge "$T/s0.json" "$T/d$i.json" >"$T/out" 2>"$T/err"
	[ $? -eq 2 ] && [ ! -s "$T/out" ] && grep -q "d$i.json: run 1: " "$T/err"
	check "json: damage $i ($damage) is refused" $?
done <"$T/damage"

# --by site CSV shards (a row per site, several per run) merge into the
# single run's bytes; one shard given twice is still refused.
for k in 0 1; do
	"$R" sweep -q --no-timing --by site --kernel copy2d -s l1.hash=xor --vary l1.ways=2,4,8 -f csv \
		--shard $k/2 -o "$T/site$k.csv" samples/traces/tiny.kdesc
done
"$R" sweep -q --no-timing --by site --kernel copy2d -s l1.hash=xor --vary l1.ways=2,4,8 -f csv \
	-o "$T/site.csv" samples/traces/tiny.kdesc
"$R" merge "$T/site0.csv" "$T/site1.csv" >"$T/out" 2>"$T/err" && cmp -s "$T/out" "$T/site.csv" &&
	[ "$(wc -l <"$T/site.csv")" -gt 4 ]
check "csv: --by site shards merge into the single run's bytes" $?
"$R" merge "$T/site0.csv" "$T/site0.csv" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q 'appears twice' "$T/err"
check "csv: a --by site shard given twice is refused" $?
