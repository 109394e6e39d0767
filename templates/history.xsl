<?xml version="1.0" encoding="UTF-8"?>
<!--
  history.xsl: OUT/history.html, every host's answers over its runs.  Input:
  an <annotation> built by src/pages/report.c from src/analyse/history.c's series: per
  host, per series (mode and pair of devices) the detected changes, two
  charts and a table of the runs.
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:import href="common.xsl"/>

  <xsl:variable name="a" select="/page/annotation"/>

  <xsl:template match="/">
    <xsl:call-template name="page">
      <xsl:with-param name="title" select="$a/title"/>
      <!-- the lead's first sentence: the runs and the series, counted -->
      <xsl:with-param name="description" select="$a/summary"/>
      <xsl:with-param name="body">
        <article>
          <h1><xsl:value-of select="$a/title"/></h1>
          <section class="lead"><p><xsl:value-of select="$a/intro"/></p></section>
          <p class="method"><xsl:value-of select="$a/method"/></p>
          <xsl:if test="not($a/host)">
            <p>No run of the stack of square layers has two devices measured in the same
              mode, so there is no pair whose history to show. Runs of networks alone are
              not part of the history: each network's page is where it is read.</p>
          </xsl:if>
          <xsl:if test="count($a/host/series) &gt; 1">
            <nav aria-label="Series">
              <ul>
                <xsl:for-each select="$a/host/series">
                  <li><a href="#{@anchor}"><xsl:value-of select="../@name"/>: <xsl:value-of select="@title"/></a></li>
                </xsl:for-each>
              </ul>
            </nav>
          </xsl:if>
          <xsl:for-each select="$a/host">
            <h2>Host <xsl:value-of select="@name"/></h2>
            <xsl:for-each select="series">
              <section class="series" id="{@anchor}">
                <h3><xsl:value-of select="@title"/></h3>
                <xsl:choose>
                  <xsl:when test="change">
                    <p>Changes detected:</p>
                    <ul class="changes">
                      <xsl:for-each select="change"><li><a href="{@href}"><xsl:value-of select="."/></a></li></xsl:for-each>
                    </ul>
                  </xsl:when>
                  <xsl:when test="@runs &lt; 4">
                    <p>No change detected in <xsl:value-of select="@title"/>: <xsl:value-of select="@runs"/> run<xsl:if test="@runs != 1">s</xsl:if>
                      so far, and a change needs two runs on each side of it.</p>
                  </xsl:when>
                  <xsl:otherwise><p>No change detected in <xsl:value-of select="@title"/> over these <xsl:value-of select="@runs"/> runs.</p></xsl:otherwise>
                </xsl:choose>
                <xsl:for-each select="left-out"><p class="left-out"><xsl:value-of select="."/></p></xsl:for-each>
                <xsl:apply-templates select="chart"/>
                <xsl:apply-templates select="table"/>
              </section>
            </xsl:for-each>
          </xsl:for-each>
        </article>
      </xsl:with-param>
    </xsl:call-template>
  </xsl:template>

  <xsl:template match="table">
    <div class="table-wrap">
      <table class="history">
        <caption><xsl:value-of select="@caption"/></caption>
        <thead>
          <tr><xsl:for-each select="head/th"><th scope="col"><xsl:value-of select="."/></th></xsl:for-each></tr>
        </thead>
        <tbody>
          <xsl:for-each select="row">
            <tr>
              <xsl:for-each select="td">
                <td>
                  <xsl:if test="@class"><xsl:attribute name="class"><xsl:value-of select="@class"/></xsl:attribute></xsl:if>
                  <xsl:choose>
                    <xsl:when test="@href"><a href="{@href}"><code><xsl:value-of select="."/></code></a>
                      <br/><small><xsl:value-of select="@date"/></small></xsl:when>
                    <xsl:otherwise><xsl:value-of select="."/></xsl:otherwise>
                  </xsl:choose>
                </td>
              </xsl:for-each>
            </tr>
          </xsl:for-each>
        </tbody>
      </table>
    </div>
  </xsl:template>
</xsl:stylesheet>
