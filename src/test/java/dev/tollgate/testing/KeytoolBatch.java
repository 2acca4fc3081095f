package dev.tollgate.testing;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * Several {@code keytool} commands in one JVM ({@link TlsRedis}): one JVM start instead of one per
 * command, which on a loaded machine is most of a keytool run. The commands are separated by
 * {@value #NEXT}; keytool's own {@code main} runs each (it exits 1 on the first that fails). Started with
 * {@code --add-exports java.base/sun.security.tools.keytool=ALL-UNNAMED}.
 */
public final class KeytoolBatch {

    static final String NEXT = "--next";

    private KeytoolBatch() {}

    public static void main(String[] args) throws Exception {
        Method keytool = Class.forName("sun.security.tools.keytool.Main").getMethod("main", String[].class);
        List<String> command = new ArrayList<>();
        for (String a : args) {
            if (a.equals(NEXT)) {
                keytool.invoke(null, (Object) command.toArray(String[]::new));
                command.clear();
            } else {
                command.add(a);
            }
        }
        if (!command.isEmpty()) {
            keytool.invoke(null, (Object) command.toArray(String[]::new));
        }
    }
}
