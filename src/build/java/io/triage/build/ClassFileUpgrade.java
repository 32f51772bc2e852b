package io.triage.build;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

import java.io.IOException;
import java.io.InputStream;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Build step, not product code: copies the classes of a library jar whose class files are older than Java 6 (version
 * 49, picocli's) into a directory as Java 8 class files (version 52) with their stack map frames computed, and nothing
 * else changed. The JVM's class-data-sharing archive cannot hold a class file older than version 50, so such classes
 * are read from the jar and verified on every start (picocli: some 170 classes, about a tenth of a second of a short
 * command); as version 52 the launcher's archive maps them like the product's own.
 *
 * <p>Usage: {@code ClassFileUpgrade LIBRARY.jar OUT_DIR PACKAGE_PREFIX}: only entries under the prefix are written
 * (the shade step takes them from there instead of from the jar).
 */
public final class ClassFileUpgrade {
    private ClassFileUpgrade() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            throw new IllegalArgumentException("usage: ClassFileUpgrade LIBRARY.jar OUT_DIR PACKAGE_PREFIX");
        }
        Path jar = Path.of(args[0]);
        Path out = Path.of(args[1]);
        String prefix = args[2];
        int n = 0;
        // the library's own classes resolve the common super types of frames; the JDK's come from the boot loader
        try (ZipFile zip = new ZipFile(jar.toFile());
             URLClassLoader library = new URLClassLoader(new java.net.URL[] {jar.toUri().toURL()}, null)) {
            for (Enumeration<? extends ZipEntry> en = zip.entries(); en.hasMoreElements(); ) {
                ZipEntry e = en.nextElement();
                if (e.isDirectory() || !e.getName().startsWith(prefix) || !e.getName().endsWith(".class")) {
                    continue;
                }
                byte[] b;
                try (InputStream in = zip.getInputStream(e)) {
                    b = in.readAllBytes();
                }
                Path to = out.resolve(e.getName()).normalize();
                if (!to.startsWith(out)) {
                    throw new IOException("entry outside the output directory: " + e.getName());
                }
                Files.createDirectories(to.getParent());
                Files.write(to, upgrade(b, library));
                n++;
            }
        }
        if (n == 0) {
            throw new IOException("no class under " + prefix + " in " + jar);
        }
        System.out.println("ClassFileUpgrade: " + n + " classes of " + jar.getFileName() + " as Java 8 class files");
    }

    /** The class file as version 52 (left as it is when already 50 or newer), frames computed, all else kept. */
    static byte[] upgrade(byte[] classFile, ClassLoader library) {
        ClassReader r = new ClassReader(classFile);
        int major = r.readUnsignedShort(6);
        if (major >= Opcodes.V1_6) {
            return classFile;
        }
        ClassWriter w = new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected ClassLoader getClassLoader() {
                return library;
            }
        };
        r.accept(new ClassVisitor(Opcodes.ASM9, w) {
            @Override
            public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
                super.visit(Opcodes.V1_8, access, name, signature, superName, interfaces);
            }
        }, ClassReader.SKIP_FRAMES);
        return w.toByteArray();
    }
}
