package org.switchboard.itests.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.switchboard.itests.support.HubServer;
import org.switchboard.itests.support.SynapseClient;

/**
 * The operator console in a real headless Chromium (Debian {@code chromium} + {@code chromium-driver},
 * which {@code .ci/run} installs): log in with the operator token, see a claim a SYNAPSE client makes
 * appear, force-release it with a reason, see it gone, and a second client can then claim the task.
 * Also the HTTP rules underneath: wrong token 401, no session 401, no CSRF token 403, and the token
 * never reaches the hub log.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String TOKEN = "op-" + Long.toHexString(System.nanoTime()) + "-console";
    // HTTP/1.1 as the other ITs: the JDK client otherwise asks for an h2c upgrade, whose request body Grizzly never ends
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static HubServer hub;
    private static WebDriver browser;

    @BeforeAll
    static void start() {
        hub = HubServer.start(HubServer.env("SWITCHBOARD_OPERATOR_TOKEN", TOKEN));
        ChromeOptions options = new ChromeOptions();
        options.setBinary(System.getProperty("chromium.binary", "/usr/bin/chromium"));
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,2000");
        // the Debian driver, so Selenium Manager never downloads one
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new java.io.File(System.getProperty("chromedriver.binary", "/usr/bin/chromedriver")))
                .build();
        browser = new ChromeDriver(service, options);
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (hub != null) {
            hub.stop();
        }
    }

    private static HttpResponse<String> post(String path, String body, String cookie, String csrf) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(hub.http(path)).POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json");
        if (cookie != null) {
            request.header("Cookie", cookie);
        }
        if (csrf != null) {
            request.header("X-CSRF-Token", csrf);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    @Order(1)
    void loginSessionAndCsrfRules() throws Exception {
        assertEquals(401, post("/console/api/login", "{\"token\":\"wrong\"}", null, null).statusCode());
        assertEquals(401, HTTP.send(HttpRequest.newBuilder(hub.http("/console/api/claims")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode());
        HttpResponse<String> login = post("/console/api/login", "{\"token\":\"" + TOKEN + "\"}", null, null);
        assertEquals(200, login.statusCode(), login.body());
        String setCookie = login.headers().firstValue("Set-Cookie").orElseThrow();
        assertTrue(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"), setCookie);
        String cookie = setCookie.substring(0, setCookie.indexOf(';'));
        String csrf = Json.createReader(new java.io.StringReader(login.body())).readObject().getString("csrf");
        assertEquals(200, HTTP.send(HttpRequest.newBuilder(hub.http("/console/api/claims")).header("Cookie", cookie).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode());
        HttpResponse<String> noCsrf = post("/console/api/claims/release", "{\"task_id\":\"x\",\"reason\":\"r\"}", cookie, null);
        assertEquals(403, noCsrf.statusCode(), noCsrf.body());
        HttpResponse<String> noReason = post("/console/api/claims/release", "{\"task_id\":\"x\"}", cookie, csrf);
        assertEquals(400, noReason.statusCode(), noReason.body());
        assertEquals(200, post("/console/api/logout", "{}", cookie, csrf).statusCode());
        assertEquals(401, HTTP.send(HttpRequest.newBuilder(hub.http("/console/api/claims")).header("Cookie", cookie).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode());
    }

    @Test
    @Order(2)
    void operatorSeesAClaimAndForceReleasesItInTheBrowser() throws Exception {
        WebDriverWait wait = new WebDriverWait(browser, WAIT);
        browser.get(hub.http("/console/").toString());
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("token")));
        browser.findElement(By.id("token")).sendKeys("not-the-token");
        browser.findElement(By.id("login")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("login-error"), "wrong operator token"));
        WebElement token = browser.findElement(By.id("token"));
        token.clear();
        token.sendKeys(TOKEN);
        browser.findElement(By.id("login")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("claims")));

        try (SynapseClient alice = SynapseClient.register(hub.webSocketUri(), "console/alice");
             SynapseClient bob = SynapseClient.register(hub.webSocketUri(), "console/bob")) {
            alice.send(claim("console-1"));
            alice.expect(f -> "claim_granted".equals(f.getString("type", "")), WAIT);
            By row = By.cssSelector("#claims tbody tr[data-key='console-1']");
            wait.until(ExpectedConditions.textToBePresentInElementLocated(row, "console/alice"));
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("roster"), "console/bob"));

            browser.findElement(By.id("release-task")).sendKeys("console-1");
            browser.findElement(By.id("release-reason")).sendKeys("released from ConsoleIT");
            browser.findElement(By.id("release-button")).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("status"), "released console-1"));
            wait.until(ExpectedConditions.numberOfElementsToBe(row, 0));

            JsonObject told = alice.expect(f -> "release_granted".equals(f.getString("type", ""))
                    && "console-1".equals(f.getString("task_id", "")), WAIT);
            assertTrue(told.getBoolean("released_by_operator"), told.toString());
            bob.send(claim("console-1"));
            JsonObject answer = bob.expect(f -> f.getString("type", "").startsWith("claim_"), WAIT);
            assertEquals("claim_granted", answer.getString("type"), answer.toString());
            wait.until(ExpectedConditions.textToBePresentInElementLocated(row, "console/bob"));
        }
        assertFalse(Files.readString(hub.logFile()).contains(TOKEN), "the operator token reached the hub log");
    }

    @Test
    @Order(3)
    void theDeliveryQueueShowsARequestAClientLeftPending() throws Exception {
        WebDriverWait wait = new WebDriverWait(browser, WAIT);
        browser.get(hub.http("/console/").toString()); // still logged in from the test before
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("delivery")));
        String token = "5".repeat(64);
        String incarnation = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(token.getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        try (SynapseClient builder = SynapseClient.register(hub.webSocketUri(), "console/builder", Json.createObjectBuilder()
                        .add("protocol_version", 3).add("delivery_session_token", token)
                        .add("delivery_capabilities", Json.createObjectBuilder().add("follow_up", "native")).build());
             SynapseClient planner = SynapseClient.register(hub.webSocketUri(), "console/planner",
                     Json.createObjectBuilder().add("protocol_version", 3).build())) {
            planner.send(SynapseClient.frame("delivery_request", "console/builder", "").add("protocol_version", 3)
                    .add("request_id", "rq-console").add("idempotency_key", "ik-console").add("target_incarnation", incarnation)
                    .add("mode", "follow_up").add("task_id", "T-console").add("body", "left queued by ConsoleIT")
                    .add("deadline", Math.floor(System.currentTimeMillis() / 1000.0) + 3000.5));
            JsonObject queued = planner.expect(f -> "delivery_status".equals(f.getString("type", "")) && !f.containsKey("audience"), WAIT);
            By row = By.cssSelector("#delivery tbody tr[data-key='" + queued.getString("operation_key") + "']");
            wait.until(ExpectedConditions.textToBePresentInElementLocated(row, "console/planner"));
            String shown = browser.findElement(row).getText();
            assertTrue(shown.contains("rq-console") && shown.contains("console/builder") && shown.contains("queued"), shown);
            assertFalse(shown.contains("left queued by ConsoleIT"), "the request body is not shown: " + shown);
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("#delivery-counts tr[data-key='open_queued']"), "1"));
            assertTrue(browser.findElement(By.id("forwards-note")).getText().contains("No message peers configured"),
                    browser.findElement(By.id("forwards-note")).getText());
        }
    }

    private static JsonObject claim(String taskId) {
        return SynapseClient.frame("claim", "System", "").add("task_id", taskId)
                .add("paths", Json.createArrayBuilder().add("console/" + taskId)).add("ttl_seconds", 900).build();
    }
}
