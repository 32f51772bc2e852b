package io.triage.facts;

/**
 * A partial download in a weights cache, read from a directory listing ({@code ls -l} of a Hugging Face cache's
 * {@code blobs/}: unfinished files end in {@code .incomplete}): the newest one's size and how long before the look
 * it was last written.
 *
 * @param ageSeconds seconds between the file's last write and the capture's clock (the listing's minute or second)
 */
public record WeightDownload(String file, long sizeBytes, long ageSeconds, String probe, int line, String excerpt)
        implements Evidence {
}
