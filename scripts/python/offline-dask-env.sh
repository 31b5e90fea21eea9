#!/bin/sh
# A self-contained Python 3.11 with Dask distributed and numpy, for a machine with no
# network (a GPU server, say) whose own Python cannot run Debian's Dask.  Made here from
# Debian 12's packages (apt-get download, dpkg -x: no root, nothing installed here) and
# packed into one archive; on the other machine, unpack it anywhere and run
# ENV/bin/python3 (a launcher that points the interpreter at its own files).
#
# Usage: scripts/python/offline-dask-env.sh OUTPUT.tar.xz
#   There:  tar xf OUTPUT.tar.xz -C DIR && DIR/floatadm-dask-env/bin/python3 -c 'import distributed'
# The other machine needs an x86-64 glibc as new as Debian 12's (2.36) or newer.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu

out=$1
case "$out" in /*) ;; *) out=$(pwd)/$out ;; esac

# The interpreter, Dask distributed and numpy with what they load at run time.  The C
# library, libgcc and zlib are the other machine's own.
packages="python3.11-minimal libpython3.11-minimal libpython3.11-stdlib python3-minimal
python3-distributed python3-dask python3-numpy python3-click python3-cloudpickle
python3-fsspec python3-heapdict python3-importlib-metadata python3-jinja2 python3-locket
python3-markupsafe python3-more-itertools python3-msgpack python3-packaging python3-partd
python3-pkg-resources python3-psutil python3-six python3-sortedcontainers python3-tblib
python3-toolz python3-tornado python3-typing-extensions python3-urllib3 python3-yaml
python3-zict python3-zipp libffi8 libexpat1 libssl3 libsqlite3-0 libyaml-0-2 libbz2-1.0
liblzma5 libuuid1 libncursesw6 libtinfo6 libreadline8 libblas3 liblapack3 libgfortran5
libquadmath0 libcrypt1 libnsl2 libtirpc3 libdb5.3 libgdbm6 media-types"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
env_dir=$work/floatadm-dask-env
mkdir -p "$work/debs" "$env_dir/root" "$env_dir/bin"

(cd "$work/debs" && apt-get download $packages >/dev/null)
for deb in "$work"/debs/*.deb; do dpkg -x "$deb" "$env_dir/root"; done
# Documentation, translations and test suites are not needed to run.
rm -rf "$env_dir/root/usr/share/doc" "$env_dir/root/usr/share/man" \
       "$env_dir/root/usr/share/locale" "$env_dir/root/usr/lib/python3.11/test" \
       "$env_dir/root/usr/lib/python3/dist-packages/numpy/tests" \
       "$env_dir/root/usr/lib/python3/dist-packages/distributed/tests" \
       "$env_dir/root/usr/lib/python3/dist-packages/dask/tests"
# Debian picks the BLAS through alternatives: link the reference one in place.
lib=$env_dir/root/usr/lib/x86_64-linux-gnu
ln -sf blas/libblas.so.3 "$lib/libblas.so.3"
ln -sf lapack/liblapack.so.3 "$lib/liblapack.so.3"

cat > "$env_dir/bin/python3" <<'LAUNCHER'
#!/bin/sh
# Runs the carried Python 3.11 on its own standard library and packages.
root=$(cd "$(dirname "$0")/../root" && pwd)
export PYTHONHOME="$root/usr"
export PYTHONPATH="$root/usr/lib/python3/dist-packages${PYTHONPATH:+:$PYTHONPATH}"
export LD_LIBRARY_PATH="$root/usr/lib/x86_64-linux-gnu:$root/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
exec "$root/usr/bin/python3.11" "$@"
LAUNCHER
chmod 755 "$env_dir/bin/python3"

"$env_dir/bin/python3" -c 'import distributed, numpy, psutil, msgpack, tornado, yaml' ||
    { echo "offline-dask-env: the environment does not import" >&2; exit 1; }
tar -C "$work" -cJf "$out" floatadm-dask-env
echo "offline-dask-env: $out ($(du -h "$out" | cut -f1))"
