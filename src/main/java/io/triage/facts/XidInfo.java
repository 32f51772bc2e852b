package io.triage.facts;

/**
 * What the Xid catalogue says of a code seen in the kernel log.
 *
 * @param implicates hardware, driver, application, system or consequence
 * @param fault true when the code means the GPU or its driver is at fault
 */
public record XidInfo(int code, String name, String implicates, boolean fault, String action) {
}
