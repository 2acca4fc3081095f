package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A non-default {@code tollgate.admin.role} is the role checked: on a Liberty server of its own (limits
 * in process) whose operator resource needs {@value #ROLE}, the demo's operator, who holds the default
 * role {@code tollgate-admin} only, is refused (403) on the operator resource and the console page, as is
 * the viewer; an anonymous caller is asked to sign in (401).
 */
@OwnServer
class AdminRoleIT {

    static final String ROLE = "tollgate-auditor";

    static ExtraServer server;

    @BeforeAll
    static void start() throws Exception {
        server = ExtraServer.start("adminrole", List.of("-Dtollgate.admin.role=" + ROLE), Map.of());
        assertTrue(server.started(), server.log());
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theConfiguredRoleNotTheDefaultIsWhatTheOperatorPathsNeed() throws Exception {
        for (String path : List.of("/tollgate/admin/state", "/tollgate/console", "/tollgate/admin/locks")) {
            HttpResponse<String> operator = AdminHttp.send(server.baseUrl(), "GET", path, AdminHttp.OPERATOR);
            assertEquals(403, operator.statusCode(), path + " as the default role's holder: " + head(operator.body()));
            if (path.startsWith("/tollgate/admin/")) {
                assertTrue(operator.body().contains("needs role " + ROLE), head(operator.body()));
            }
            assertEquals(
                    403,
                    AdminHttp.send(server.baseUrl(), "GET", path, AdminHttp.VIEWER)
                            .statusCode(),
                    path);
            HttpResponse<String> anonymous = AdminHttp.send(server.baseUrl(), "GET", path, null);
            assertEquals(401, anonymous.statusCode(), path + ": " + head(anonymous.body()));
        }
    }

    private static String head(String body) {
        return body.length() <= 300 ? body : body.substring(0, 300) + "...";
    }
}
