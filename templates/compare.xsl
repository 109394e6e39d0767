<?xml version="1.0" encoding="UTF-8"?>
<!--
  compare.xsl: what changed between two runs (OUT/compare/<a>..<b>.html).
-->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:import href="common.xsl"/>

  <xsl:variable name="a" select="/page/annotation"/>

  <xsl:template match="/">
    <xsl:call-template name="page">
      <xsl:with-param name="title" select="$a/title"/>
      <xsl:with-param name="description" select="$a/summary"/>
      <xsl:with-param name="body">
        <article>
          <h1><xsl:value-of select="$a/title"/></h1>
          <p class="byline">A = <a href="{$a/@href-a}"><code><xsl:value-of select="$a/@a"/></code></a>
            (<xsl:value-of select="$a/@host-a"/>, <xsl:value-of select="$a/@date-a"/>),
            B = <a href="{$a/@href-b}"><code><xsl:value-of select="$a/@b"/></code></a>
            (<xsl:value-of select="$a/@host-b"/>, <xsl:value-of select="$a/@date-b"/>)</p>
          <section class="lead">
            <ul class="verdicts">
              <xsl:for-each select="$a/group">
                <li class="{@verdict}"><strong><xsl:value-of select="."/></strong></li>
              </xsl:for-each>
            </ul>
            <p><xsl:value-of select="$a/summary"/></p>
          </section>
          <h2>What differs between the runs</h2>
          <xsl:choose>
            <xsl:when test="$a/diff">
              <div class="table-wrap">
                <table class="setup diffs">
                  <caption>Provenance fields that differ</caption>
                  <thead><tr><th scope="col">What</th><th scope="col">A</th><th scope="col">B</th></tr></thead>
                  <tbody>
                    <xsl:for-each select="$a/diff">
                      <tr><th scope="row"><xsl:value-of select="@what"/></th>
                        <td><xsl:value-of select="@a"/></td><td><xsl:value-of select="@b"/></td></tr>
                    </xsl:for-each>
                  </tbody>
                </table>
              </div>
            </xsl:when>
            <xsl:otherwise><p>Nothing in the provenance differs: same machine, drivers and
              libraries, so any change is the machine's own variation.</p></xsl:otherwise>
          </xsl:choose>
          <h2>The change, point by point</h2>
          <xsl:apply-templates select="$a/chart"/>
          <xsl:if test="$a/move">
            <h2>How the crossovers moved</h2>
            <ul><xsl:for-each select="$a/move"><li><xsl:value-of select="."/></li></xsl:for-each></ul>
          </xsl:if>
          <div class="table-wrap">
            <table class="verdicts">
              <caption>Step time in A and B: the 10th percentile of each point's samples,
                the quick tenth that a busy machine disturbs least (with several runs a side,
                the geometric mean of theirs); the interval of B/A holds the run-to-run variation,
                as the run-level verdict's does, so a point is faster or slower only when its
                interval excludes 1 and the change reaches the threshold; "up/down from its
                run" marks a point that moved apart from its device's run. Devices are matched
                by id; → marks a device whose id or model differs.</caption>
              <thead><tr><th scope="col">Device</th><th scope="col">Mode</th>
                <th scope="col">Hidden</th><th scope="col">Batch</th><th scope="col">A</th>
                <th scope="col">B</th><th scope="col">B/A</th><th scope="col">Interval</th>
                <th scope="col">Verdict</th></tr></thead>
              <tbody>
                <xsl:for-each select="$a/points/point">
                  <tr class="{@verdict}">
                    <th scope="row"><code><xsl:value-of select="@device"/></code>
                      <span class="model"><xsl:value-of select="@model"/></span></th>
                    <td class="text"><xsl:value-of select="@mode"/></td>
                    <td><xsl:value-of select="@hidden"/></td><td><xsl:value-of select="@batch"/></td>
                    <td><xsl:value-of select="@time-a"/></td><td><xsl:value-of select="@time-b"/></td>
                    <td><xsl:value-of select="@ratio"/></td><td><xsl:value-of select="@test"/></td>
                    <td class="text"><xsl:value-of select="@verdict"/><xsl:if test="@note"> (<xsl:value-of select="@note"/>)</xsl:if></td>
                  </tr>
                </xsl:for-each>
              </tbody>
            </table>
          </div>
        </article>
      </xsl:with-param>
    </xsl:call-template>
  </xsl:template>
</xsl:stylesheet>
