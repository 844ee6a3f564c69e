import Foundation

/// The console's page, `GET /` on the broker's `--http` port: one HTML document with its style and script inline,
/// served from the binary. Nothing is fetched from anywhere but the broker itself (no CDN, no font, no image), so
/// it works on a host without internet.
///
/// The script reads `console/v1/cluster.json` every second and rebuilds the tables and the chart. Every string in
/// that document may come from a peer (service names, worker names, request ids), so the script only ever puts
/// them in the page as text (`textContent`), never as markup; the response's
/// Content-Security-Policy lets only the script carrying this response's nonce run, so markup that slipped in
/// anyway could not run a script of its own.
package enum ConsolePage {
    /// The page, with `nonce` on its script (fresh for every response: `ConsoleRoutes`).
    package static func html(nonce: String) -> String {
        template.replacingOccurrences(of: "NONCE", with: nonce)
    }

    /// The policy that goes with `html(nonce:)`: the page's own script and styles, requests to its own origin,
    /// nothing else (no frames, forms, plugins or base URL).
    package static func contentSecurityPolicy(nonce: String) -> String {
        "default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'unsafe-inline'; connect-src 'self'; "
            + "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    }

    static let template = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Tally console</title>
        <style>
        :root { --ink: #1d2330; --muted: #687083; --line: #e3e6ec; --panel: #ffffff; --back: #f4f5f8;
                --rate: #2f6fdb; --p99: #d9822b; --bad: #c0392b; --good: #1e8e4e; }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--back); color: var(--ink);
               font: 14px/1.4 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; }
        header { display: flex; align-items: baseline; gap: 16px; padding: 12px 20px; background: var(--ink); color: #fff; }
        header h1 { margin: 0; font-size: 18px; }
        #status { font-size: 13px; opacity: .85; }
        #status.down { color: #ffb4a8; opacity: 1; }
        main { padding: 12px 20px 24px; display: grid; gap: 14px; }
        section { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 10px 14px; }
        h2 { margin: 0 0 8px; font-size: 14px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
        .facts { display: flex; flex-wrap: wrap; gap: 8px 28px; margin: 0; }
        .facts div { display: flex; flex-direction: column; }
        .facts dt { font-size: 12px; color: var(--muted); }
        .facts dd { margin: 0; font-size: 16px; font-variant-numeric: tabular-nums; }
        table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
        th, td { text-align: right; padding: 4px 8px; border-bottom: 1px solid var(--line); white-space: nowrap; }
        th { font-size: 12px; font-weight: 600; color: var(--muted); }
        th:first-child, td:first-child, td.text, th.text { text-align: left; }
        td.name { max-width: 28em; overflow: hidden; text-overflow: ellipsis; }
        td.detail { white-space: normal; text-align: left; overflow-wrap: anywhere; }
        td.bad { color: var(--bad); font-weight: 600; }
        tr.empty td { color: var(--muted); text-align: left; }
        .legend { display: flex; gap: 18px; font-size: 12px; color: var(--muted); margin-top: 4px; }
        .legend span::before { content: ""; display: inline-block; width: 14px; height: 3px; margin-right: 6px;
                               vertical-align: middle; background: var(--swatch); }
        svg { width: 100%; height: 180px; display: block; }
        svg text { font-size: 11px; fill: var(--muted); }
        svg .grid { stroke: var(--line); }
        svg .rate { fill: none; stroke: var(--rate); stroke-width: 2; }
        svg .p99 { fill: none; stroke: var(--p99); stroke-width: 1.5; stroke-dasharray: 4 3; }
        </style>
        </head>
        <body data-refreshes="0">
        <header><h1>Tally</h1><span id="status">connecting…</span></header>
        <main>
        <section><h2>Broker</h2><dl class="facts" id="broker"></dl></section>
        <section><h2>Last 15 minutes</h2>
        <svg id="chart" viewBox="0 0 900 180" preserveAspectRatio="none" role="img" aria-label="requests per second and p99"></svg>
        <div class="legend"><span style="--swatch: var(--rate)">requests/s (left)</span><span style="--swatch: var(--p99)">p99 ms (right)</span></div>
        </section>
        <section><h2>Services</h2><table>
        <thead><tr><th>service</th><th>processes</th><th>connections</th><th>credit</th><th>in flight</th><th>queued</th><th>oldest wait</th><th>req/s (1 min)</th><th>p50</th><th>p99</th><th class="text">errors (1 min)</th></tr></thead>
        <tbody id="services"></tbody></table></section>
        <section><h2>Worker processes</h2><table>
        <thead><tr><th>process</th><th class="text">service</th><th>connections</th><th>credit</th><th>in flight</th><th>served</th><th>errors</th><th>last heard</th></tr></thead>
        <tbody id="processes"></tbody></table></section>
        <section><h2>Incidents</h2><table>
        <thead><tr><th>last</th><th class="text">kind</th><th class="text">service</th><th>count</th><th class="text">detail</th></tr></thead>
        <tbody id="incidents"></tbody></table></section>
        </main>
        <noscript><p>The console needs JavaScript; its data is at <a href="console/v1/cluster.json">console/v1/cluster.json</a>.</p></noscript>
        <script nonce="NONCE">
        "use strict";
        // Peer strings (services, workers, request ids) go in as text only: textContent, never innerHTML.
        const SOURCE = "console/v1/cluster.json";
        const SVG = "http://www.w3.org/2000/svg";
        let refreshes = 0;

        function element(tag, text, className) {
          const node = document.createElement(tag);
          if (text !== undefined) node.textContent = String(text);
          if (className) node.className = className;
          return node;
        }
        function row(cells, className) {
          const tr = element("tr", undefined, className);
          for (const [text, cellClass] of cells) tr.appendChild(element("td", text, cellClass));
          return tr;
        }
        function emptyRow(columns, text) {
          const tr = element("tr", undefined, "empty");
          const td = element("td", text);
          td.colSpan = columns;
          tr.appendChild(td);
          return tr;
        }
        function count(n) { return typeof n === "number" ? n.toLocaleString("en-US") : "–"; }
        function ms(value) {
          if (typeof value !== "number") return "–";
          return (value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : Math.round(value).toLocaleString("en-US")) + " ms";
        }
        function rate(value) { return typeof value === "number" ? (value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : Math.round(value).toLocaleString("en-US")) : "–"; }
        function duration(seconds) {
          const s = Math.floor(seconds), d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600), m = Math.floor(s % 3600 / 60);
          return d > 0 ? d + "d " + h + "h" : h > 0 ? h + "h " + m + "m" : m > 0 ? m + "m " + (s % 60) + "s" : s + "s";
        }
        function clock(text) { const date = new Date(text); return isNaN(date) ? String(text) : date.toLocaleTimeString(); }
        function processName(process) { return process.name !== null && process.name !== undefined ? process.name : "mdp " + process.id; }

        function renderBroker(doc) {
          const b = doc.broker;
          const facts = [
            ["version", b.version], ["uptime", duration(b.uptime_seconds)], ["CURVE", b.curve ? "on" : "off"],
            ["state", b.draining ? "draining" : "serving"], ["client connections", count(b.client_connections)],
            ["worker connections", count(b.worker_connections)], ["services", count(doc.services.length)],
            ["updated", clock(doc.generated_at)],
          ];
          const nodes = facts.map(([term, value]) => {
            const div = element("div");
            div.appendChild(element("dt", term));
            div.appendChild(element("dd", value));
            return div;
          });
          document.getElementById("broker").replaceChildren(...nodes);
        }

        function renderServices(doc) {
          const rows = doc.services.map((s) => {
            const w = s.last_minute;
            const errors = w.errors.map((e) => e.code + " ×" + count(e.count)).join(", ");
            const tr = row([
              [s.name, "name"], [count(s.worker_processes)], [count(s.connections)], [count(s.credit)], [count(s.in_flight)],
              [count(s.queued)], [ms(s.oldest_wait_ms)], [rate(w.requests_per_second)], [ms(w.p50_ms)], [ms(w.p99_ms)],
              [errors || "–", errors ? "text bad" : "text"],
            ], "service");
            if (s.worker_processes === 0) tr.children[1].className = "bad";
            return tr;
          });
          if (doc.services_not_listed > 0) rows.push(emptyRow(11, count(doc.services_not_listed) + " more services not listed"));
          document.getElementById("services").replaceChildren(...(rows.length ? rows : [emptyRow(11, "no services yet")]));
        }

        function renderProcesses(doc) {
          const rows = [];
          for (const s of doc.services) {
            for (const p of s.processes) {
              const tr = row([
                [processName(p), "name"], [s.name, "text name"], [count(p.connections)], [count(p.credit)], [count(p.in_flight)],
                [count(p.served)], [count(p.errors), p.errors > 0 ? "bad" : ""], [ms(p.last_heard_ms)],
              ], "process");
              tr.firstChild.setAttribute("title", "id " + p.id);
              rows.push(tr);
            }
            if (s.processes_not_listed > 0) rows.push(emptyRow(8, s.name + ": " + count(s.processes_not_listed) + " more processes not listed"));
          }
          document.getElementById("processes").replaceChildren(...(rows.length ? rows : [emptyRow(8, "no worker processes registered")]));
        }

        function renderIncidents(doc) {
          const rows = doc.incidents.map((i) => row([
            [clock(i.last_at)], [i.kind.replaceAll("_", " "), "text"], [i.service === null ? "(no worker registered)" : i.service, "text name"],
            [count(i.count)], [i.detail, "detail"],
          ], "incident"));
          document.getElementById("incidents").replaceChildren(...(rows.length ? rows : [emptyRow(5, "nothing went wrong lately")]));
        }

        function svg(tag, attributes, text) {
          const node = document.createElementNS(SVG, tag);
          for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
          if (text !== undefined) node.textContent = String(text);
          return node;
        }
        function renderChart(doc) {
          const width = 900, height = 180, left = 48, right = 56, top = 8, bottom = 22;
          const points = doc.series.points, capacity = Math.max(180, points.length);
          const maxRate = Math.max(1, ...points.map((p) => p.requests_per_second));
          const maxP99 = Math.max(1, ...points.map((p) => typeof p.p99_ms === "number" ? p.p99_ms : 0));
          const x = (i) => left + (width - left - right) * (capacity - points.length + i) / Math.max(1, capacity - 1);
          const y = (value, max) => top + (height - top - bottom) * (1 - value / max);
          const nodes = [];
          for (const fraction of [0, 0.5, 1]) {
            const level = top + (height - top - bottom) * (1 - fraction);
            nodes.push(svg("line", { x1: left, x2: width - right, y1: level, y2: level, class: "grid" }));
            nodes.push(svg("text", { x: left - 6, y: level + 4, "text-anchor": "end" }, rate(maxRate * fraction)));
            nodes.push(svg("text", { x: width - right + 6, y: level + 4 }, ms(maxP99 * fraction)));
          }
          nodes.push(svg("text", { x: left, y: height - 6 }, "−15 min"));
          nodes.push(svg("text", { x: width - right, y: height - 6, "text-anchor": "end" }, "now"));
          if (points.length > 0) {
            nodes.push(svg("polyline", { class: "rate", points: points.map((p, i) => x(i) + "," + y(p.requests_per_second, maxRate)).join(" ") }));
            const latency = points.map((p, i) => typeof p.p99_ms === "number" ? x(i) + "," + y(p.p99_ms, maxP99) : null).filter((p) => p !== null);
            if (latency.length > 0) nodes.push(svg("polyline", { class: "p99", points: latency.join(" ") }));
          }
          document.getElementById("chart").replaceChildren(...nodes);
        }

        function setStatus(text, down) {
          const status = document.getElementById("status");
          status.textContent = text;
          status.className = down ? "down" : "";
        }

        async function refresh() {
          try {
            const response = await fetch(SOURCE, { cache: "no-store" });
            if (!response.ok) throw new Error("HTTP " + response.status);
            const doc = await response.json();
            renderBroker(doc);
            renderChart(doc);
            renderServices(doc);
            renderProcesses(doc);
            renderIncidents(doc);
            refreshes += 1;
            document.body.dataset.refreshes = String(refreshes);
            setStatus("live · refreshed every " + doc.refresh_seconds + " s", false);
          } catch (error) {
            setStatus("no answer from the broker (" + error.message + "); retrying", true);
          }
        }
        refresh();
        setInterval(refresh, 1000);
        </script>
        </body>
        </html>
        """#
}
