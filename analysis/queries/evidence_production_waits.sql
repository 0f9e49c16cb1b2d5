-- Arm B per sample and browser: does the page render after domcontentloaded, and how long do the
-- generic settlement rules wait? Computed here from the recorded timeline (the title and body-text
-- samples), independently of the policies' TypeScript (core/evidence/production.ts), which the
-- recount uses.
--   title_changed_n / body_changed_n   the first sample at or after domcontentloaded differs from the last
--   title settlement    the first title sample at or after domcontentloaded that is non-empty, not a
--                       loading shell (loading, "...", "…"), and equal at the next sample at least
--                       200 ms later, within 15 000 ms of dispatch; wait from domcontentloaded
--   body stability      after the title settled, the first three consecutive equal, non-empty body
--                       samples at least 200 ms apart, the last within 5 000 ms; wait from the settlement
-- reads: production_rows
WITH production AS (
  SELECT sample, browser, condition_id, events FROM production_rows
),
events AS (
  SELECT
    p.sample, p.browser, p.condition_id,
    (e ->> 't_ms')::DOUBLE AS t_ms,
    e ->> 'source' AS source,
    e ->> 'type' AS type,
    e -> 'detail' ->> 'title' AS title,
    CASE WHEN coalesce((e -> 'detail' ->> 'chars')::INTEGER, 0) > 0 THEN coalesce(e -> 'detail' ->> 'sha256', '') ELSE '' END AS body
  FROM production AS p, unnest(CAST(p.events AS JSON[])) AS u(e)
),
dcl AS (
  SELECT browser, condition_id, min(t_ms) AS dcl_ms FROM events
  WHERE source = 'dom' AND type = 'domcontentloaded' GROUP BY browser, condition_id
),
titles AS (
  SELECT e.browser, e.condition_id, e.t_ms, coalesce(e.title, '') AS title, d.dcl_ms,
    lead(coalesce(e.title, '')) OVER w AS next_title, lead(e.t_ms) OVER w AS next_t,
    row_number() OVER w AS i, count(*) OVER (PARTITION BY e.browser, e.condition_id) AS of_n
  FROM events AS e JOIN dcl AS d USING (browser, condition_id)
  WHERE e.source = 'dom' AND e.type = 'title' AND e.t_ms >= d.dcl_ms
  WINDOW w AS (PARTITION BY e.browser, e.condition_id ORDER BY e.t_ms)
),
first_candidate AS (
  SELECT browser, condition_id, arg_min(next_t, t_ms) AS settled_t, arg_min(dcl_ms, t_ms) AS dcl_ms
  FROM titles
  WHERE trim(title) <> '' AND NOT regexp_matches(title, '(?i)\bloading\b|\.\.\.|…')
    AND next_title = title AND next_t - t_ms >= 200
  GROUP BY browser, condition_id
),
settled AS (
  SELECT browser, condition_id, settled_t, settled_t - dcl_ms AS title_wait_ms
  FROM first_candidate WHERE settled_t - dcl_ms <= 15000
),
bodies AS (
  SELECT e.browser, e.condition_id, e.t_ms, e.body, s.settled_t,
    lag(e.body, 1) OVER w AS body_1, lag(e.t_ms, 1) OVER w AS t_1,
    lag(e.body, 2) OVER w AS body_2, lag(e.t_ms, 2) OVER w AS t_2
  FROM events AS e JOIN settled AS s USING (browser, condition_id)
  WHERE e.source = 'dom' AND e.type = 'body' AND e.t_ms >= s.settled_t AND e.t_ms <= s.settled_t + 5000
  WINDOW w AS (PARTITION BY e.browser, e.condition_id ORDER BY e.t_ms)
),
stable AS (
  SELECT browser, condition_id, min(t_ms) - any_value(settled_t) AS body_wait_ms
  FROM bodies
  WHERE body <> '' AND body = body_1 AND body = body_2 AND t_ms - t_1 >= 200 AND t_1 - t_2 >= 200
  GROUP BY browser, condition_id
),
first_last AS (
  SELECT e.browser, e.condition_id,
    arg_min(e.title, e.t_ms) FILTER (WHERE e.type = 'title' AND e.t_ms >= d.dcl_ms) AS first_title,
    arg_max(e.title, e.t_ms) FILTER (WHERE e.type = 'title') AS last_title,
    arg_min(e.body, e.t_ms) FILTER (WHERE e.type = 'body' AND e.t_ms >= d.dcl_ms) AS first_body,
    arg_max(e.body, e.t_ms) FILTER (WHERE e.type = 'body') AS last_body
  FROM events AS e JOIN dcl AS d USING (browser, condition_id)
  WHERE e.source = 'dom' AND e.type IN ('title', 'body')
  GROUP BY e.browser, e.condition_id
)
SELECT
  p.sample,
  p.browser,
  count(*)::INTEGER AS n,
  count(d.dcl_ms)::INTEGER AS dcl_n,
  count_if(f.first_title IS NOT NULL AND f.first_title <> f.last_title)::INTEGER AS title_changed_n,
  count_if(f.first_body IS NOT NULL AND f.first_body <> f.last_body)::INTEGER AS body_changed_n,
  count(s.title_wait_ms)::INTEGER AS title_settled_n,
  count(b.body_wait_ms)::INTEGER AS body_stable_n,
  median(d.dcl_ms) AS median_dcl_ms,
  median(s.title_wait_ms) AS median_title_wait_ms,
  median(b.body_wait_ms) AS median_body_wait_ms
FROM production AS p
LEFT JOIN dcl AS d USING (browser, condition_id)
LEFT JOIN settled AS s USING (browser, condition_id)
LEFT JOIN stable AS b USING (browser, condition_id)
LEFT JOIN first_last AS f USING (browser, condition_id)
GROUP BY p.sample, p.browser
ORDER BY p.sample, p.browser;
