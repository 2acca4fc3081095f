#!/usr/bin/env python3
"""Draws tollgate-dashboard.json's panels as one HTML page of SVG bars, from a real scrape.

Not Grafana (which is not installable here): each panel's MicroProfile Metrics query is read for its
metric, label filter and grouping label, and evaluated on the counters of one /metrics scrape, so the
bars are totals since the server started, not rates. Usage:

    render.py tollgate-dashboard.json scrape.txt out.html "caption"
"""
import html
import json
import re
import sys

SAMPLE = re.compile(r'^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+([-+0-9.eE]+|NaN)')
LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')
QUERY = re.compile(r'(?:sum|max)\s*(?:by \(([\w, ]+)\) )?\((?:increase|rate)?\(?(\w+)(?:\{([^}]*)\})?')


def samples(text):
    out = []
    for line in text.splitlines():
        m = SAMPLE.match(line)
        if m and not line.startswith('#'):
            out.append((m.group(1), dict(LABEL.findall(m.group(2) or '')), float(m.group(3))))
    return out


def evaluate(expr, scraped):
    m = QUERY.search(expr)
    if not m:
        return {}
    by = [b.strip() for b in (m.group(1) or '').split(',') if b.strip()]
    name, filters = m.group(2), dict(LABEL.findall(m.group(3) or ''))
    groups = {}
    for metric, labels, value in scraped:
        if metric != name or any(f in labels and labels[f] != v for f, v in filters.items() if '~' not in v):
            continue
        key = ' '.join(labels.get(b, '') for b in by) or 'value'
        groups[key] = max(groups.get(key, 0), value) if expr.startswith('max') else groups.get(key, 0) + value
    return groups


def panel_svg(values, width, height):
    if not values:
        return f'<svg width="{width}" height="{height}"><text x="10" y="30" fill="#8e8e8e">No data</text></svg>'
    top = max(values.values()) or 1
    row = min(34, (height - 10) // len(values))
    parts = [f'<svg width="{width}" height="{height}">']
    colors = ['#73bf69', '#f2495c', '#fade2a', '#5794f2', '#b877d9', '#ff9830', '#8ab8ff']
    for i, (label, value) in enumerate(sorted(values.items(), key=lambda kv: -kv[1])):
        y = 6 + i * row
        w = max(2, int((width - 230) * value / top))
        parts.append(f'<text x="4" y="{y + row * 0.65:.0f}" fill="#ccccdc" font-size="13">{html.escape(label)}</text>')
        parts.append(f'<rect x="160" y="{y}" width="{w}" height="{row - 8}" fill="{colors[i % len(colors)]}"/>')
        parts.append(f'<text x="{166 + w}" y="{y + row * 0.65:.0f}" fill="#ccccdc" font-size="13">{value:g}</text>')
    parts.append('</svg>')
    return ''.join(parts)


def main(dashboard, scrape, out, caption):
    dash = json.load(open(dashboard))
    scraped = samples(open(scrape).read())
    cells = []
    for p in dash['panels']:
        g = p['gridPos']
        values = {}
        for t in p['targets']:
            for k, v in evaluate(t['expr'], scraped).items():
                label = t.get('legendFormat', k)
                label = re.sub(r'\{\{\s*\w+\s*\}\}', '%s', label) % tuple(k.split(' ')[:label.count('{{')]) if '{{' in label else label
                values[label] = values.get(label, 0) + v
        w, h = g['w'] * 52, g['h'] * 34
        cells.append(f'<div class="panel" style="left:{g["x"] * 52 + 8}px;top:{g["y"] * 34 + 56}px;width:{w - 8}px;height:{h - 8}px">'
                     f'<div class="title">{html.escape(p["title"])}</div>{panel_svg(values, w - 16, h - 44)}</div>')
    bottom = max(p['gridPos']['y'] + p['gridPos']['h'] for p in dash['panels']) * 34 + 64
    page = f'''<!doctype html><html><head><meta charset="utf-8"><style>
body {{ background:#111217; color:#ccccdc; font-family:sans-serif; margin:0; width:1264px; }}
h1 {{ font-size:18px; margin:0; padding:16px 8px; }}
.panel {{ position:absolute; background:#181b1f; border:1px solid #2c3235; border-radius:2px; }}
.title {{ font-size:14px; font-weight:600; padding:6px 8px; }}
.caption {{ position:absolute; top:{bottom}px; left:8px; font-size:12px; color:#8e8e8e; width:1240px; }}
</style></head><body><h1>{html.escape(dash["title"])}</h1>{"".join(cells)}
<div class="caption">{html.escape(caption)}</div></body></html>'''
    open(out, 'w').write(page)


if __name__ == '__main__':
    main(*sys.argv[1:5])
