package io.triage.engine;

import org.drools.base.InitialFact;
import org.kie.api.definition.rule.Rule;
import org.kie.api.event.rule.AfterMatchFiredEvent;
import org.kie.api.event.rule.BeforeMatchFiredEvent;
import org.kie.api.event.rule.DefaultAgendaEventListener;
import org.kie.api.event.rule.ObjectDeletedEvent;
import org.kie.api.event.rule.ObjectInsertedEvent;
import org.kie.api.event.rule.ObjectUpdatedEvent;
import org.kie.api.event.rule.RuleRuntimeEventListener;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the engine did, recorded as it did it: every rule firing with the facts its match held, and for
 * every fact a rule inserted, the firing that inserted it. Only references are kept while the engine
 * runs; text is made later, when the diagnosis is explained.
 */
public final class Trace extends DefaultAgendaEventListener implements RuleRuntimeEventListener {
    /** One rule firing: the rule and the facts of its match, in pattern order. */
    public record Firing(Rule rule, List<Object> premises) {
        public Firing {
            // a match holds the engine's own InitialFact for 'not' and 'exists' patterns: not evidence; nor is the
            // catalogue a rule looks knowledge up in (what it found there is the premise)
            List<Object> kept = new ArrayList<>(premises.size());
            for (Object o : premises) {
                // nor a count an accumulate made (the rule's text says what it counted)
                if (!(o instanceof InitialFact) && !(o instanceof io.triage.facts.Catalogue) && !(o instanceof Number)) {
                    kept.add(o);
                }
            }
            premises = Collections.unmodifiableList(kept);
        }

        public String ruleName() {
            return rule.getName();
        }
    }

    private final List<Firing> firings = new ArrayList<>();
    private final Map<Object, Firing> insertedBy = new IdentityHashMap<>();
    private final Map<Object, Integer> order = new IdentityHashMap<>();
    private Firing current;

    @Override
    public void beforeMatchFired(BeforeMatchFiredEvent event) {
        current = new Firing(event.getMatch().getRule(), event.getMatch().getObjects());
    }

    @Override
    public void afterMatchFired(AfterMatchFiredEvent event) {
        if (current != null) {
            firings.add(current);
        }
        current = null;
    }

    @Override
    public void objectInserted(ObjectInsertedEvent event) {
        if (event.getRule() != null && current != null) {
            insertedBy.putIfAbsent(event.getObject(), current);
            order.putIfAbsent(event.getObject(), order.size());
        }
    }

    @Override
    public void objectUpdated(ObjectUpdatedEvent event) {
        // facts are immutable records: never updated
    }

    @Override
    public void objectDeleted(ObjectDeletedEvent event) {
        // a derived fact whose support went is simply no longer in working memory at the end
    }

    public List<Firing> firings() {
        return firings;
    }

    /** When a rule inserted {@code fact}, counting rule insertions from 0; MAX_VALUE for parsed facts. */
    public int insertionIndex(Object fact) {
        return order.getOrDefault(fact, Integer.MAX_VALUE);
    }

    /** The firing that inserted {@code fact}, or null for facts the parsers inserted. */
    public Firing justification(Object fact) {
        return insertedBy.get(fact);
    }
}
