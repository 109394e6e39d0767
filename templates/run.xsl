<?xml version="1.0" encoding="UTF-8"?>
<!--
  run.xsl: the report of one run, as a blog post (OUT/runs/<id>/index.html,
  and OUT/index.html for the newest run).  Also renders the <article> that
  goes into the feed item (page kind "feed-item").
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:import href="common.xsl"/>

  <xsl:variable name="a" select="/page/annotation"/>

  <xsl:template match="/">
    <xsl:call-template name="page">
      <xsl:with-param name="title" select="$a/title"/>
      <xsl:with-param name="description" select="$a/summary"/>
      <xsl:with-param name="body">
        <xsl:call-template name="article"/>
        <xsl:if test="/page/@kind != 'feed-item' and not($offline)">
          <xsl:call-template name="archive"/>
        </xsl:if>
      </xsl:with-param>
    </xsl:call-template>
  </xsl:template>

  <xsl:template name="article">
    <article>
      <h1><xsl:value-of select="$a/title"/></h1>
      <p class="byline">
        <time datetime="{$a/@datetime}"><xsl:value-of select="$a/@date"/></time>
        <xsl:if test="/page/site/@author != ''">
          <xsl:text> · by </xsl:text><xsl:value-of select="/page/site/@author"/>
        </xsl:if>
        <xsl:text> · run </xsl:text><code><xsl:value-of select="$a/@run"/></code>
      </p>
      <xsl:if test="$a/caveats">
        <p class="warning caveat"><strong><xsl:value-of select="$a/caveats/@short"/></strong>
          <xsl:if test="$a/caveats/caveat"><xsl:text> </xsl:text><xsl:value-of select="$a/caveats/caveat[1]"/></xsl:if></p>
        <xsl:for-each select="$a/caveats/caveat[position() &gt; 1]">
          <p class="warning caveat"><xsl:value-of select="."/></p>
        </xsl:for-each>
      </xsl:if>
      <section class="lead">
        <xsl:for-each select="$a/lead/p"><p><xsl:value-of select="."/></p></xsl:for-each>
      </section>
      <xsl:if test="$a/lead/item">
        <ul class="detail">
          <xsl:for-each select="$a/lead/item"><li><xsl:value-of select="."/></li></xsl:for-each>
        </ul>
      </xsl:if>
      <xsl:for-each select="$a/lead/note"><p class="note"><xsl:value-of select="."/></p></xsl:for-each>
      <xsl:for-each select="$a/warning">
        <p class="warning"><strong>Warning: </strong><xsl:value-of select="."/></p>
      </xsl:for-each>

      <xsl:if test="$a/hosts">
        <h2>All machines</h2>
        <p><xsl:value-of select="$a/hosts/p"/></p>
        <xsl:apply-templates select="$a/hosts/chart"/>
      </xsl:if>

      <h2>The setup</h2>
      <div class="table-wrap">
        <table class="setup">
          <caption>The machine</caption>
          <tbody>
            <xsl:for-each select="$a/system/row">
              <tr><th scope="row"><xsl:value-of select="@name"/></th><td><xsl:value-of select="@value"/></td></tr>
            </xsl:for-each>
          </tbody>
        </table>
      </div>
      <div class="table-wrap">
        <table class="setup">
          <caption>The devices</caption>
          <thead>
            <tr><th scope="col">Device</th><th scope="col">Type</th><th scope="col">Name</th>
              <th scope="col">Driver</th><th scope="col">Library</th>
              <th scope="col">Threads</th>
              <xsl:if test="$a/devices/@peaks = 'yes'"><th scope="col">fp32 peak</th></xsl:if>
              <xsl:if test="$a/devices/@priced = 'yes'"><th scope="col">Price (USD)</th></xsl:if></tr>
          </thead>
          <tbody>
            <xsl:for-each select="$a/devices/device">
              <tr><th scope="row"><code><xsl:value-of select="@id"/></code></th>
                <td><xsl:value-of select="@type"/></td><td><xsl:value-of select="@name"/></td>
                <td><xsl:value-of select="@driver"/></td><td class="library"><xsl:value-of select="@library"/></td>
                <td><xsl:value-of select="@threads"/></td>
                <xsl:if test="$a/devices/@peaks = 'yes'"><td><xsl:value-of select="@peak"/></td></xsl:if>
                <xsl:if test="$a/devices/@priced = 'yes'"><td><xsl:value-of select="@price"/></td></xsl:if></tr>
            </xsl:for-each>
          </tbody>
        </table>
      </div>
      <p class="method"><xsl:value-of select="$a/method"/></p>
      <xsl:if test="$a/telemetry">
        <p class="telemetry"><xsl:value-of select="$a/telemetry"/></p>
      </xsl:if>

      <xsl:for-each select="$a/mode[chart or table or energy]">
        <h2>
          <xsl:choose>
            <xsl:when test="@name = 'training'">Training</xsl:when>
            <xsl:otherwise>Inference</xsl:otherwise>
          </xsl:choose>
        </h2>
        <xsl:apply-templates select="chart"/>
        <xsl:apply-templates select="table"/>
        <xsl:for-each select="energy"><p class="energy"><xsl:value-of select="."/></p></xsl:for-each>
      </xsl:for-each>

      <xsl:if test="$a/networks">
        <h2>Networks</h2>
        <ul class="networks">
          <xsl:for-each select="$a/networks/network">
            <li><xsl:call-template name="link">
                <xsl:with-param name="href" select="@href"/>
                <xsl:with-param name="text" select="@name"/>
              </xsl:call-template>
              <xsl:if test="@name != @sizes"> (<code><xsl:value-of select="@sizes"/></code>)</xsl:if>
              <xsl:if test="verdict">:</xsl:if>
              <xsl:for-each select="verdict"><xsl:text> </xsl:text><xsl:value-of select="."/></xsl:for-each></li>
          </xsl:for-each>
        </ul>
      </xsl:if>

      <h2>Conclusions</h2>
      <ul class="conclusions">
        <xsl:for-each select="$a/mode/conclusion"><li><xsl:value-of select="."/></li></xsl:for-each>
        <xsl:if test="$a/compare/@href">
          <li>Compared with the previous run on this host
            (<xsl:call-template name="link">
              <xsl:with-param name="href" select="$a/compare/@href"/>
              <xsl:with-param name="text" select="$a/compare/@previous"/>
            </xsl:call-template>):
            <xsl:value-of select="$a/compare/@summary"/>.</li>
        </xsl:if>
      </ul>
      <xsl:if test="$a/compare/@note">
        <p><xsl:value-of select="$a/compare/@note"/></p>
      </xsl:if>

      <xsl:if test="$a/changes">
        <h2>Changes that start at this run</h2>
        <p>Over this host's runs, the history finds a step at this run in:</p>
        <ul class="changes">
          <xsl:for-each select="$a/changes/change"><li><xsl:call-template name="link">
            <xsl:with-param name="href" select="@href"/>
            <xsl:with-param name="text" select="."/>
          </xsl:call-template></li></xsl:for-each>
        </ul>
      </xsl:if>

      <h2>How to reproduce</h2>
      <p>This run was measured by breakeven <xsl:value-of select="$a/reproduce/@version"/>
        <xsl:if test="$a/reproduce/@commit != ''">, commit
          <code><xsl:value-of select="$a/reproduce/@commit"/></code></xsl:if>
        <xsl:if test="$a/reproduce/@dirty = 'yes'"> with uncommitted changes on top of it</xsl:if>.
        On a Debian or Ubuntu machine, in a clone of breakeven's repository:</p>
      <pre><code><xsl:if test="$a/reproduce/@commit != ''">git checkout <xsl:value-of select="$a/reproduce/@commit"/><xsl:text>
</xsl:text></xsl:if>make<xsl:text>
</xsl:text><xsl:if test="$a/reproduce/@env"><xsl:value-of select="$a/reproduce/@env"/><xsl:text> </xsl:text></xsl:if>./<xsl:value-of select="$a/reproduce"/></code></pre>
      <xsl:choose>
        <xsl:when test="$a/reproduce/@env">
          <p>The environment variables before the command are those of the run that change what
            OpenBLAS, OpenMP, the OpenCL loader or the drivers do; set them the same way.</p>
        </xsl:when>
        <xsl:otherwise>
          <p>No variable that changes what OpenBLAS, OpenMP, the OpenCL loader or the drivers do
            was recorded for this run (none was set, or an older breakeven did not record them).</p>
        </xsl:otherwise>
      </xsl:choose>
      <p>The data: <xsl:call-template name="link">
          <xsl:with-param name="href" select="$a/files/@results"/>
          <xsl:with-param name="text" select="'results.xml'"/>
        </xsl:call-template> (every sample, with its provenance) and <xsl:call-template name="link">
          <xsl:with-param name="href" select="$a/files/@csv"/>
          <xsl:with-param name="text" select="'results.csv'"/>
        </xsl:call-template> (one line per point)<xsl:if test="$offline">, beside the run's
          page in its report</xsl:if>.</p>
      <xsl:if test="$a/note and /page/@kind != 'feed-item' and not($single)">
        <p class="note"><xsl:value-of select="$a/note"/></p>
      </xsl:if>
    </article>
  </xsl:template>

  <!-- The table of times: a group of rows per shape, a row per device, so
       that on a phone every device's median of a shape is in view at once,
       its interval written under it (a phone has no hover). -->
  <xsl:template match="table">
    <div class="table-wrap">
      <table class="times">
        <caption><xsl:value-of select="@caption"/></caption>
        <thead>
          <tr><th scope="col">Device</th><th scope="col">Median time of a step</th>
            <xsl:if test="@energy = 'yes'"><th scope="col">Energy per step</th></xsl:if></tr>
        </thead>
        <xsl:for-each select="shape">
          <tbody>
            <tr class="shape">
              <th scope="rowgroup" colspan="{2 + number(../@energy = 'yes')}">Hidden <xsl:value-of
                select="@hidden"/>, batch <xsl:value-of select="@batch"/> · <xsl:value-of
                select="@flops"/> per layer</th>
            </tr>
            <xsl:for-each select="row">
              <tr>
                <th scope="row"><xsl:value-of select="@device"/></th>
                <xsl:for-each select="td">
                  <td class="{normalize-space(concat(@status, ' ', @flag))}">
                    <xsl:if test="@title"><xsl:attribute name="title"><xsl:value-of select="@title"/></xsl:attribute></xsl:if>
                    <xsl:value-of select="."/>
                    <xsl:if test="@status = 'drift'"><span class="drift"> ↗</span></xsl:if>
                    <xsl:if test="@throttled = 'yes'"> †</xsl:if>
                    <xsl:if test="@ci">
                      <br/><small class="ci"><span><xsl:value-of select="@ci"/></span> · <span>n <xsl:value-of select="@n"/></span><xsl:if test="@flag = 'wide'"> · wide</xsl:if><xsl:if test="@flag = 'uninformative'"> · uninformative</xsl:if></small>
                    </xsl:if>
                    <xsl:if test="@sample">
                      <br/><small class="per"><span><xsl:value-of select="@sample"/> a sample</span><xsl:if test="@steps"> · <span>steps of <xsl:value-of select="@steps"/></span><xsl:text> </xsl:text><span>at <xsl:value-of select="@power"/></span></xsl:if></small>
                    </xsl:if>
                  </td>
                </xsl:for-each>
              </tr>
            </xsl:for-each>
          </tbody>
        </xsl:for-each>
      </table>
    </div>
  </xsl:template>

  <xsl:template name="archive">
    <nav class="archive" aria-label="Archive of runs">
      <h2>Archive</h2>
      <ul>
        <xsl:for-each select="$a/archive/entry">
          <li>
            <xsl:choose>
              <xsl:when test="@current = 'yes'">
                <strong><xsl:value-of select="@date"/> — <xsl:value-of select="@host"/></strong>
                <xsl:text> (this report)</xsl:text>
              </xsl:when>
              <xsl:otherwise>
                <a href="{@href}"><xsl:value-of select="@date"/> — <xsl:value-of select="@host"/></a>
              </xsl:otherwise>
            </xsl:choose>
            <xsl:if test="@warn">
              <br/><span class="flags"><strong>Warning: </strong><xsl:value-of select="@warn"/></span>
            </xsl:if>
            <br/><span class="answer"><xsl:value-of select="@answer"/></span>
          </li>
        </xsl:for-each>
      </ul>
      <p class="pages">
        <xsl:choose>
          <xsl:when test="$a/archive/@kind = 'newest'">
            <a href="{$a/archive/@page}">Every run</a>
            <xsl:text> in the archive of </xsl:text><xsl:value-of select="$a/archive/@runs"/>
            <xsl:text> run</xsl:text><xsl:if test="$a/archive/@runs != 1">s</xsl:if>
          </xsl:when>
          <!-- not the number of runs: a run's page stays as it is when
               runs are added far from it -->
          <xsl:otherwise><a href="{$a/archive/@page}">The runs around this one</a> in the archive</xsl:otherwise>
        </xsl:choose>
      </p>
    </nav>
  </xsl:template>
</xsl:stylesheet>
