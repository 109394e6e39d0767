<?xml version="1.0" encoding="UTF-8"?>
<!--
  net.xsl: the page of one network of a run (OUT/runs/<id>/net-<name>.html):
  its answer per mode and view, its charts, the per-layer breakdown and the
  best placement of its layers.  Input: the <annotation> of src/pages/page_net.c.
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
          <p class="byline">
            <time datetime="{$a/@datetime}"><xsl:value-of select="$a/@date"/></time>
            <xsl:text> · run </xsl:text><a href="index.html"><code><xsl:value-of select="$a/@run"/></code></a>
            <xsl:text> · layers </xsl:text><code><xsl:value-of select="$a/@sizes"/></code>
          </p>
          <section class="lead">
            <h2>The answer</h2>
            <ul class="verdicts">
              <xsl:for-each select="$a/verdicts/verdict">
                <li class="{@kind}"><xsl:value-of select="."/></li>
              </xsl:for-each>
            </ul>
          </section>
          <xsl:for-each select="$a/mode">
            <h2>
              <xsl:choose>
                <xsl:when test="@name = 'training'">Training</xsl:when>
                <xsl:otherwise>Inference</xsl:otherwise>
              </xsl:choose>
            </h2>
            <xsl:apply-templates select="chart"/>
            <xsl:for-each select="note"><p><xsl:value-of select="."/></p></xsl:for-each>
            <xsl:for-each select="layers">
              <div class="table-wrap">
                <table class="layers">
                  <caption>Time of each layer on <xsl:value-of select="@base-name"/> and
                    <xsl:value-of select="@other-name"/> at each batch where both timed the
                    layers, the faster in bold. Then the best placement of the layers with its
                    estimated step time, copies between the devices included, beside every
                    layer on one device or the other.</caption>
                  <thead>
                    <tr><th scope="col">Batch</th>
                      <xsl:for-each select="head/layer">
                        <th scope="col">Layer <xsl:value-of select="@n"/><br/><small><xsl:value-of select="@shape"/></small><br/><small><xsl:value-of select="../../@base"/> / <xsl:value-of select="../../@other"/></small></th>
                      </xsl:for-each>
                      <th scope="col">Best placement</th>
                      <th scope="col">Its estimate</th>
                      <th scope="col">All on <xsl:value-of select="@base-name"/></th>
                      <th scope="col">All on <xsl:value-of select="@other-name"/>, with copies</th></tr>
                  </thead>
                  <tbody>
                    <xsl:for-each select="row">
                      <tr><th scope="row"><xsl:value-of select="@batch"/></th>
                        <xsl:for-each select="layer">
                          <td class="{@winner}">
                            <xsl:choose>
                              <xsl:when test="@winner = 'base'"><strong><xsl:value-of select="@base"/></strong> / <xsl:value-of select="@other"/></xsl:when>
                              <xsl:otherwise><xsl:value-of select="@base"/> / <strong><xsl:value-of select="@other"/></strong></xsl:otherwise>
                            </xsl:choose>
                            <br/><small class="ci"><xsl:value-of select="@faster"/> faster</small>
                          </td>
                        </xsl:for-each>
                        <td class="text"><xsl:value-of select="@placement"/></td>
                        <td><xsl:value-of select="@best"/></td>
                        <td><xsl:value-of select="@all-base"/></td>
                        <td><xsl:value-of select="@all-other"/></td></tr>
                    </xsl:for-each>
                  </tbody>
                </table>
              </div>
            </xsl:for-each>
          </xsl:for-each>
          <h2>How these numbers were made</h2>
          <p class="method"><xsl:value-of select="$a/method"/></p>
          <p><a href="index.html">The run's page</a> has the machine, the devices and how to
            reproduce the run.</p>
        </article>
      </xsl:with-param>
    </xsl:call-template>
  </xsl:template>
</xsl:stylesheet>
