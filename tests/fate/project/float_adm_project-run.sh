# $1: a lavfi source; $2: the container of the source file made from it (mkv
# or y4m); the rest: encoder options.  The transcode of the source file is
# scored in the loop (loopback decoder) and, afterwards, the written file
# against the source file paired by timestamp: both must equal pairing frame
# by frame (setpts=N/TB on both inputs).
float_adm_transcode(){
    src=$1
    container=$2
    shift 2
    srcfile="${outdir}/${test}.src.${container}"
    encfile="${outdir}/${test}.mkv"
    inloopfile="${outdir}/${test}.inloop"
    afterfile="${outdir}/${test}.after"
    indexfile="${outdir}/${test}.index"
    cleanfiles="$cleanfiles $srcfile $encfile $inloopfile $afterfile $indexfile"
    case $container in
        y4m) srcenc="-c:v wrapped_avframe -f yuv4mpegpipe" ;;
        *)   srcenc="-c:v ffv1 -f matroska" ;;
    esac
    ffmpeg -f lavfi -i "$src" $srcenc -y $(target_path $srcfile) || return
    ffmpeg -i $(target_path $srcfile) $ENC_OPTS "$@" -map 0:v -y -f matroska $(target_path $encfile) \
        -dec 0:0 -filter_complex "[dec:0][0:v]float_adm=debug=1:ts_sync_mode=nearest,metadata=print:file=$(target_path $inloopfile)[scored]" \
        -map "[scored]" -f null - || return
    ffmpeg -i $(target_path $encfile) -i $(target_path $srcfile) \
        -lavfi "[0:v][1:v]float_adm=debug=1:ts_sync_mode=nearest,metadata=print:file=$(target_path $afterfile)" \
        -f null - || return
    ffmpeg -i $(target_path $encfile) -i $(target_path $srcfile) \
        -lavfi "[0:v]setpts=N/TB[d];[1:v]setpts=N/TB[r];[d][r]float_adm=debug=1,metadata=print:file=$(target_path $indexfile)" \
        -f null - || return
    # The scores alone: timestamps rewritten by number lie apart where a time
    # base cannot hold whole seconds (pair_doubt); the others' must be in no doubt.
    grep '^lavfi\.float_adm\.' $indexfile | grep -v '^lavfi\.float_adm\.pair_doubt=' > $indexfile.scores
    grep '^lavfi\.float_adm\.' $inloopfile | diff - $indexfile.scores >&2 || return
    grep '^lavfi\.float_adm\.' $afterfile | diff - $indexfile.scores >&2 || return
    echo "$(grep -c '^lavfi\.float_adm\.adm2=' $indexfile.scores) frames: in-loop and timestamp-paired scores equal frame-by-frame scores"
    rm -f $indexfile.scores
}

# $1: the frames wanted of the output (-frames:v).  psnr's stats and, after it
# in the chain, float_adm's CSV log: per thread count, whether the log holds
# the frames wanted (or one more: ffmpeg filters one frame past the limit) and
# no more than psnr's stats.
float_adm_frames_limit(){
    n=$1
    log="${outdir}/${test}.csv"
    stats="${outdir}/${test}.stats"
    cleanfiles="$cleanfiles $log $stats"
    for threads in 1 4; do
        ffmpeg -filter_complex_threads $threads \
            -lavfi "testsrc2=size=176x144:rate=25:duration=1,format=yuv420p,split=3[ref][tmp][ref2];[tmp]avgblur=4[enc];[enc][ref]psnr=stats_file=$(target_path $stats)[measured];[measured][ref2]float_adm=log_fmt=csv:log_path=$(target_path $log)" \
            -frames:v $n -f null - || return
        logged=$(grep -c '^[0-9]' $log)
        measured=$(grep -c '^n:' $stats)
        if [ $logged -ge $n ] && [ $logged -le $((n + 1)) ] && [ $logged -le $measured ]; then
            echo "threads $threads: the log holds $n or $((n + 1)) frames, no more than psnr's stats"
        else
            echo "threads $threads: the log holds $logged frames, psnr's stats $measured, $n wanted"
        fi
    done
}

# $1: float_adm options; the log it writes to stdout, numbers masked.
float_adm_log(){
    ffmpeg $FLAGS \
        -lavfi "testsrc2=size=300x200:rate=1:duration=3,format=yuv420p,split[ref][tmp];[tmp]avgblur=4[enc];[enc][ref]float_adm=$1:log_path=-" \
        -f null /dev/null | sed -e 's/float_adm [0-9.]*/float_adm X/' -e 's/-*[0-9][0-9]*\.[0-9][0-9]*\(e[-+][0-9][0-9]*\)*/N/g'
}

# $1: float_adm_map options.  testsrc2 in the left half of a black picture,
# against the same with the left half blurred; the map's frames are checked for
# what holds on any processor (a block's colour may differ in its last bit where
# its loss does): one map frame per main frame with the main frame's
# timestamps, the frames named by their content (A, B, ...: unscored frames
# repeat the last map), and per frame whether the blocks 96 pixels clear of the
# blurred half are black (no loss) and most blocks of the blurred half painted.
float_adm_map_frames(){
    mainfile="${outdir}/${test}.main"
    hashfile="${outdir}/${test}.map"
    rawfile="${outdir}/${test}.rgb"
    cleanfiles="$cleanfiles $mainfile $hashfile $rawfile"
    ffmpeg $FLAGS -filter_complex "testsrc2=size=160x96:rate=25:duration=0.24,format=yuv420p,split[left][blur];[left]pad=320:96[ref];[blur]avgblur=4,pad=320:96,split[dist][main];[dist][ref]float_adm_map=$1,split[hash][raw]" \
        -map "[main]" -c:v wrapped_avframe -f framemd5 $(target_path $mainfile) \
        -map "[hash]" -c:v rawvideo -f framemd5 $(target_path $hashfile) \
        -map "[raw]" -c:v rawvideo -f rawvideo $(target_path $rawfile) || return
    grep -v '^#' $mainfile | cut -d, -f1-4 > $mainfile.ts
    grep -v '^#' $hashfile | cut -d, -f1-4 | diff $mainfile.ts - >&2 || return
    echo "$(grep -c . $mainfile.ts) map frames, with the main frames' timestamps"
    rm -f $mainfile.ts
    grep '^#dimensions' $hashfile
    grep -v '^#' $hashfile | awk -F', *' '!($6 in name) { name[$6] = sprintf("%c", 65 + n++) } { printf "%s", name[$6] } END { print "" }'
    od -An -v -tu1 -w960 $rawfile | awk '
        { y = (NR - 1) % 96 }
        y % 32 == 16 {
            for (c = 0; c < 10; c++) {
                painted = $(c * 96 + 49) + $(c * 96 + 50) + $(c * 96 + 51) > 0
                if (c < 5) { half++; lossy += painted } else if (c >= 8) clean += painted
            }
        }
        y == 95 {
            printf("frame %d: blocks clear of the blur %s, blurred half %s\n", (NR - 1) / 96,
                   clean ? "painted" : "black", lossy * 2 > half ? "mostly painted" : "mostly black")
            half = lossy = clean = 0
        }'
}

float_adm_map_threads(){
    graph="testsrc2=size=100x70:rate=25:duration=0.12,format=yuv420p,split[ref][blur];[blur]avgblur=3[dist];[dist][ref]float_adm_map"
    one=$(ffmpeg $FLAGS -filter_complex_threads 1 -filter_complex "$graph" -c:v rawvideo -f framecrc -) || return
    # -cpucount: the slices are at most one per core, and this host may have fewer.
    three=$(ffmpeg $FLAGS -cpucount 3 -filter_complex_threads 3 -filter_complex "$graph" \
            -c:v rawvideo -f framecrc -) || return
    [ "$one" = "$three" ] || { echo "the pictures painted on 3 threads differ from 1 thread's" >&2; return 1; }
    echo "$(echo "$one" | grep -vc '^#') map pictures, the same on 1 and 3 threads"
}

float_adm_fail(){
    errlog="${outdir}/${test}.log"
    cleanfiles="$cleanfiles $errlog"
    ffmpeg -v error "$@" -f null - 2>$errlog && { echo "ffmpeg succeeded"; return 1; }
    sed -n -e 's/^\[Parsed_float_adm[a-z_]*_[0-9]* @ [^]]*\] //p' -e 's/^\[fc#[0-9]* @ [^]]*\] //' \
        -e '/float_adm/p' $errlog | head -n 1
}

