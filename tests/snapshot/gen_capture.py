#!/usr/bin/env python3
"""A synthetic capture in the format of ./run capture (sim/capture.sh), for
the import's tests and benchmark: NODES nodes of GIB GiB each, 2 CPUs per
node, memory in pairs of pageblocks (1024 frames) cycling through five
patterns whose free blocks and pageblock types are known, so buddyinfo,
pagetypeinfo and zoneinfo are written to agree exactly with the flags.

usage: gen_capture.py GIB NODES OUT.tar.gz [--break KIND] [--hugetlb]
  --hugetlb: node 0's second GiB a 1 GiB hugetlb page (GIB 2 or more).
  --break truncate|length|layout|flags|unknown: a capture with that defect
  (unknown: a flag bit no kernel has yet on the anonymous pages)."""
import io, os, struct, sys, tarfile, time, zlib

KPF = dict(LRU=5, SLAB=7, BUDDY=10, ANON=12, SWAPBACKED=14, COMPOUND_HEAD=15, COMPOUND_TAIL=16, HUGE=17,
           THP=22, PGTABLE=26, RESERVED=32)
def flags(*names):
    return sum(1 << KPF[n] for n in names)
ANON = flags('ANON', 'LRU', 'SWAPBACKED'); FILE = flags('LRU'); SLAB = flags('SLAB')
BUDDY = flags('BUDDY'); RESERVED = flags('RESERVED'); PGTABLE = flags('PGTABLE')
PAIR = 1024

def pair(kind):
    """(1024 flag words, {order: count}, [type of pageblock 0, 1])."""
    w = [0] * PAIR; free = {}
    if kind == 'A':     # wholly free: one order-10 block
        w[0] = BUDDY; free[10] = 1; types = ['Movable', 'Movable']
    elif kind == 'B':   # anonymous
        w = [ANON] * PAIR; types = ['Movable', 'Movable']
    elif kind == 'C':   # 16 order-0 slabs, 8 order-1 slabs, 16 page-table and 16
                        # unflagged kernel pages, free 64-511 (orders 6, 7, 8), file pages
        for i in range(16): w[i] = SLAB
        for i in range(16, 32):
            w[i] = SLAB | flags('COMPOUND_TAIL' if i % 2 else 'COMPOUND_HEAD')
        for i in range(32, 48): w[i] = PGTABLE
        for p, o in ((64, 6), (128, 7), (256, 8)):
            w[p] = BUDDY; free[o] = free.get(o, 0) + 1
        for i in range(512, PAIR): w[i] = FILE
        types = ['Unmovable', 'Movable']
    elif kind == 'T':   # two anonymous THPs
        for i in range(PAIR):
            w[i] = ANON | flags('THP', 'COMPOUND_TAIL' if i % 512 else 'COMPOUND_HEAD')
        types = ['Movable', 'Movable']
    else:               # 'D': anonymous and free pages alternating
        for i in range(PAIR):
            w[i] = ANON if i % 2 == 0 else BUDDY
        free[0] = PAIR // 2; types = ['Movable', 'Movable']
    return struct.pack('<%dQ' % PAIR, *w), free, types

CYCLE = 'ABCATDAA'
ORDERS = 11
MT = ['Unmovable', 'Movable', 'Reclaimable', 'HighAtomic', 'Isolate']

def zones_of(nodes, node_pages):
    """[(nid, name, start, end)]: node 0 from pfn 1 (pfn 0 is not memory)."""
    out = []
    for n in range(nodes):
        lo, hi = n * node_pages, (n + 1) * node_pages
        for name, zlo, zhi in (('DMA', 1, 4096), ('DMA32', 4096, 1 << 20), ('Normal', 1 << 20, 1 << 62)):
            a, b = max(lo, zlo), min(hi, zhi)
            if a < b: out.append((n, name, a, b))
    return out

def main():
    gib, nodes, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    brk = sys.argv[sys.argv.index('--break') + 1] if '--break' in sys.argv else None
    gigantic = (1 << 18, 2 << 18) if '--hugetlb' in sys.argv else (0, 0)
    huge = (struct.pack('<Q', flags('HUGE', 'COMPOUND_HEAD')) +
            struct.pack('<Q', flags('HUGE', 'COMPOUND_TAIL')) * (PAIR - 1),
            struct.pack('<Q', flags('HUGE', 'COMPOUND_TAIL')) * PAIR)
    node_pages = gib << 18; frames = nodes * node_pages
    pairs = {k: pair(k) for k in 'ABCDT'}
    if brk == 'unknown':    # a later kernel's flag (bit 50) on every anonymous page
        data, free, types = pairs['B']
        pairs['B'] = (struct.pack('<%dQ' % PAIR, *([ANON | 1 << 50] * PAIR)), free, types)
    zones = zones_of(nodes, node_pages)
    stats = {}
    comp = zlib.compressobj(1, zlib.DEFLATED, 31)
    flagbuf = io.BytesIO()
    reserved = struct.pack('<Q', RESERVED) * PAIR
    # The DMA zone, and pfn 0, hold reserved pages; the rest cycles.
    i = 0; thp_kb = 0; slab_kb = 0
    for base in range(0, frames, PAIR):
        z = next((z for z in zones if z[2] <= base < z[3] or (base == 0 and z[1] == 'DMA')), None)
        if z[1] == 'DMA':
            data, free, types = reserved, {}, ['Movable', 'Movable']
        elif gigantic[0] <= base < gigantic[1]:
            data, free, types = huge[base != gigantic[0]], {}, ['Movable', 'Movable']
        else:
            data, free, types = pairs[CYCLE[i % len(CYCLE)]]; i += 1
        s = stats.setdefault((z[0], z[1]), {'free': [0] * ORDERS, 'types': {}})
        if data is pairs['T'][0]: thp_kb = thp_kb + 4096
        if data is pairs['C'][0]: slab_kb = slab_kb + 32 * 4
        for o, c in free.items(): s['free'][o] += c
        for t in types: s['types'][t] = s['types'].get(t, 0) + 1
        flagbuf.write(comp.compress(data))
    flagbuf.write(comp.flush())
    gz = flagbuf.getvalue()
    if brk == 'truncate': gz = gz[:len(gz) // 2]
    zoneinfo = []; buddy = []; ptype = ['Number of blocks type     ' + ''.join('%12s ' % t for t in MT)]
    for n, name, a, b in zones:
        s = stats[(n, name)]
        nfree = sum(c << o for o, c in enumerate(s['free']))
        reserved_pages = (b - a) if name == 'DMA' else 0
        start = a + (1 if brk == 'layout' and n == 1 else 0) - (PAIR if brk == 'layout' and n == 1 else 0)
        zoneinfo.append('Node %d, zone %8s\n  pages free     %d\n        spanned  %d\n        present  %d\n'
                        '        managed  %d\n      nr_free_pages %d\n  start_pfn:           %d\n'
                        % (n, name, nfree, b - a, b - a, b - a - reserved_pages, nfree, start))
        buddy.append('Node %d, zone %8s ' % (n, name) + ''.join('%6d ' % c for c in s['free']))
        ptype.append('Node %d, zone %8s ' % (n, name) + ''.join('%12d ' % s['types'].get(t, 0) for t in MT))
    manifest = ('format mmsim-capture 1\nkernel synthetic\nmachine x86_64\nhost gen_capture\n'
                'captured 2026-01-01T00:00:00Z\npage_size 4096\nframes %d\nbuddyinfo_consistent yes\n'
                'reads 1\npage_owner no\n' % (frames + (1 if brk == 'length' else 0)))
    files = {'manifest': manifest, 'proc/zoneinfo': ''.join(zoneinfo), 'proc/buddyinfo': '\n'.join(buddy) + '\n',
             'proc/pagetypeinfo': 'Page block order: 9\nPages per block:  512\n\n' + '\n'.join(ptype) + '\n',
             'sys/kernel/mm/transparent_hugepage/enabled': 'always [madvise] never\n',
             'proc/sys/vm/min_free_kbytes': '67584\n',
             'proc/meminfo': 'MemTotal:       %d kB\nSlab:           %d kB\nAnonHugePages:  %d kB\n'
                             % (nodes * gib << 20, slab_kb, thp_kb)}
    for n in range(nodes):
        files['sys/devices/system/node/node%d/cpulist' % n] = '%d-%d\n' % (2 * n, 2 * n + 1)
        files['sys/devices/system/node/node%d/meminfo' % n] = 'Node %d MemTotal:       %d kB\n' % (n, gib << 20)
    if brk == 'flags':
        files['proc/buddyinfo'] = 'Node 0, zone DMA 1 2 3\n'
    with tarfile.open(out, 'w:gz', compresslevel=1) as tar:
        def add(name, data):
            info = tarfile.TarInfo('./' + name); info.size = len(data); info.mtime = 0
            tar.addfile(info, io.BytesIO(data))
        add('kpageflags.gz', gz)
        for name, text in sorted(files.items()):
            add(name, text.encode())

if __name__ == '__main__':
    main()
