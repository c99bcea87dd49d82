// dpderive site: the index filters and the proof pages' teaching mode. No libraries, no
// network: everything works from file://.
"use strict";

function setUpFilters() {
  const search = document.getElementById("search");
  if (!search) return;
  const verdict = document.getElementById("filter-verdict");
  const family = document.getElementById("filter-family");
  const count = document.getElementById("shown-count");
  const none = document.getElementById("none-shown");
  const rows = Array.from(document.querySelectorAll("tr.entry"));
  function apply() {
    const words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    const v = verdict.value;
    const f = family.value;
    let shown = 0;
    for (const row of rows) {
      const okVerdict = !v || (v === "erratum" ? row.dataset.erratum === "yes" : row.dataset.verdict === v);
      const okFamily = !f || row.dataset.family === f;
      const okText = words.every((w) => row.dataset.text.includes(w));
      row.hidden = !(okVerdict && okFamily && okText);
      if (!row.hidden) shown += 1;
    }
    for (const section of document.querySelectorAll("section.family")) {
      section.hidden = !section.querySelector("tr.entry:not([hidden])");
    }
    count.textContent = shown + " shown";
    none.hidden = shown > 0;
  }
  search.addEventListener("input", apply);
  verdict.addEventListener("change", apply);
  family.addEventListener("change", apply);
  apply();
}

function setUpTeaching() {
  const start = document.getElementById("teach-start");
  if (!start) return;
  const next = document.getElementById("teach-next");
  const all = document.getElementById("teach-all");
  const progress = document.getElementById("teach-progress");
  const proof = document.querySelector("section.proof");
  const steps = Array.from(document.querySelectorAll("tr.step"));
  // A step's evidence is the row under it, across the table (absent for an unchecked step).
  const evidenceOf = (row) => document.getElementById("evidence-" + row.dataset.index);
  let shown = 0;
  function show(n) {
    shown = Math.min(n, steps.length);
    steps.forEach((row, i) => {
      row.classList.toggle("pending", i >= shown);
      row.classList.toggle("latest", i === shown - 1);
    });
    progress.textContent = "step " + shown + " of " + steps.length;
    next.disabled = shown >= steps.length;
  }
  start.addEventListener("click", () => {
    const on = !proof.classList.contains("teaching");
    proof.classList.toggle("teaching", on);
    start.textContent = on ? "Leave step-through" : "Step through";
    next.hidden = !on;
    all.hidden = !on;
    steps.forEach((row) => {
      row.classList.remove("why-1", "why-2");
      row.querySelector(".why-button").textContent = "why?";
      const evidence = evidenceOf(row);
      if (evidence) evidence.classList.remove("shown");
    });
    if (on) {
      show(1);
    } else {
      steps.forEach((row) => row.classList.remove("pending", "latest"));
      progress.textContent = "";
    }
  });
  next.addEventListener("click", () => show(shown + 1));
  all.addEventListener("click", () => show(steps.length));
  // "why?": the first click shows the justification, the second the evidence behind the verdict.
  for (const row of steps) {
    const button = row.querySelector(".why-button");
    button.addEventListener("click", () => {
      const evidence = evidenceOf(row);
      if (row.classList.contains("why-1") && evidence) {
        row.classList.replace("why-1", "why-2");
        evidence.classList.add("shown");
        const details = evidence.querySelector("details.evidence");
        if (details) details.open = true;
        button.textContent = "hide";
      } else if (row.classList.contains("why-1") || row.classList.contains("why-2")) {
        row.classList.remove("why-1", "why-2");
        if (evidence) evidence.classList.remove("shown");
        button.textContent = "why?";
      } else {
        row.classList.add("why-1");
        button.textContent = evidence ? "evidence?" : "hide";
      }
    });
  }
}

document.addEventListener("DOMContentLoaded", () => {
  setUpFilters();
  setUpTeaching();
});
