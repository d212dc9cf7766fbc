# Seed 000's overhead against tracer count, from callops-overhead.csv:
#   gnuplot -e "csv='...csv'; png='...png'" bench/plot.gp
# Columns: relevant,irrelevant,calls, then insns,per_call,overhead for
# mcount (4-6), tramp (7-9) and callops (10-12).
set datafile separator ","
set terminal pngcairo size 1100,480 font ",10"
set output png
set multiplot layout 1,2 title "ftrace-ops sample (seed 000): emulated instructions of overhead per call"
set logscale xy
set grid
set key top left
set xlabel "irrelevant tracers (1 relevant)"
set ylabel "overhead (instructions per call)"
set xrange [0.8:130]
sel1(c) = (column(1) == 1 && column(2) > 0) ? column(c) : 1/0
sel2(c) = (column(2) == 0 && column(1) > 0) ? column(c) : 1/0
plot csv every ::1 using (sel1(2)):(sel1(6)) with linespoints lw 2 title "mcount (list func)", \
     csv every ::1 using (sel1(2)):(sel1(9)) with linespoints lw 2 title "per-ops trampolines", \
     csv every ::1 using (sel1(2)):(sel1(12)) with linespoints lw 2 dt 2 title "CALL\\_OPS"
set xlabel "relevant tracers (0 irrelevant)"
plot csv every ::1 using (sel2(1)):(sel2(6)) with linespoints lw 2 title "mcount (list func)", \
     csv every ::1 using (sel2(1)):(sel2(9)) with linespoints lw 2 title "per-ops trampolines", \
     csv every ::1 using (sel2(1)):(sel2(12)) with linespoints lw 2 dt 2 title "CALL\\_OPS"
unset multiplot
