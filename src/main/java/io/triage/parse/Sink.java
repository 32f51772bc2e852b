package io.triage.parse;

import io.triage.facts.Unparseable;

import java.util.ArrayList;
import java.util.List;

/** Collects the facts the parsers produce, in order, and hands them their lines within the capture's budget. */
public final class Sink {
    private final List<Object> facts = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final ReadBudget budget;

    public Sink(ReadBudget budget) {
        this.budget = budget;
    }

    public Sink() {
        this(new ReadBudget());
    }

    public ReadBudget budget() {
        return budget;
    }

    /** The probe's lines, cut to {@link ReadBudget#LINE_CAP}, as far as the budget goes ({@code passes} per character). */
    List<String> lines(io.triage.capture.ProbeOutput p, int passes) {
        return budget.lines(p, passes, this);
    }

    public void add(Object fact) {
        facts.add(fact);
    }

    public void unparseable(String probe, String reason, int line, String excerpt) {
        facts.add(new Unparseable(probe, reason, line, excerpt));
    }

    public void note(String note) {
        notes.add(note);
    }

    public List<Object> facts() {
        return facts;
    }

    public List<String> notes() {
        return notes;
    }
}
