import java.io.*;
import java.net.*;
import java.net.http.*;
import java.nio.charset.StandardCharsets;
import java.util.*;
public class Hdr {
  static byte[] resp(boolean limited) {
    String h = "HTTP/1.1 200 OK\r\nContent-Type: text/plain;charset=UTF-8\r\n"
      + (limited ? "RateLimit: \"demo\";r=999999999;t=1\r\nRateLimit-Policy: \"demo\";q=1000000000;w=1\r\n" : "")
      + "Content-Language: en\r\nContent-Length: 6\r\nDate: Fri, 04 Dec 2026 23:56:26 GMT\r\n\r\nhello\n";
    return h.getBytes(StandardCharsets.ISO_8859_1);
  }
  public static void main(String[] a) throws Exception {
    ServerSocket ss = new ServerSocket(0);
    byte[] lim = resp(true), unl = resp(false);
    Thread srv = new Thread(() -> { try { while (true) { Socket s = ss.accept(); s.setTcpNoDelay(true); new Thread(() -> serve(s, lim, unl)).start(); } } catch (IOException e) {} });
    srv.setDaemon(true); srv.start();
    HttpClient c = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    String base = "http://127.0.0.1:" + ss.getLocalPort();
    int warm = Integer.parseInt(a[0]), n = Integer.parseInt(a[1]);
    long[] tl = new long[n], tu = new long[n];
    for (int r = -warm; r < n; r++) {
      boolean lfirst = (r & 1) == 0;
      for (int k = 0; k < 2; k++) {
        boolean l = lfirst == (k == 0);
        long t0 = System.nanoTime();
        HttpResponse<String> res = c.send(HttpRequest.newBuilder(URI.create(base + (l ? "/l" : "/u"))).timeout(java.time.Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        long t = System.nanoTime() - t0;
        if (res.statusCode() != 200) throw new IllegalStateException();
        if (r >= 0) { if (l) tl[r] = t; else tu[r] = t; }
      }
    }
    Arrays.sort(tl); Arrays.sort(tu);
    System.out.printf("static server: with the two headers p50 %.1f us, without %.1f us, difference %.1f us%n", tl[n/2]/1000.0, tu[n/2]/1000.0, (tl[n/2]-tu[n/2])/1000.0);
    System.exit(0);
  }
  static void serve(Socket s, byte[] lim, byte[] unl) {
    try (s) {
      BufferedInputStream in = new BufferedInputStream(s.getInputStream()); OutputStream out = s.getOutputStream();
      StringBuilder line = new StringBuilder(); String first = null; int c;
      while ((c = in.read()) != -1) {
        if (c == '\n') { String l = line.toString().trim(); line.setLength(0);
          if (first == null) first = l; else if (l.isEmpty()) { out.write(first.contains(" /l ") ? lim : unl); out.flush(); first = null; } }
        else line.append((char) c);
      }
    } catch (IOException e) {}
  }
}
